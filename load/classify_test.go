package load

import "testing"

func TestHasBflintKey(t *testing.T) {
	cases := []struct {
		yaml string
		want bool
	}{
		{"bflint: 1\nid: x\n", true},
		{"# a plan\nbflint : 1\n", true},
		{"id: x\nbflint:\t1\n", true},
		{"  bflint: 1\n", false},               // nested: a key of something else
		{"notbflint: 1\n", false},              // another key ending in the word
		{"bflint_version: 1\n", false},         // another key starting with it
		{"name: bflint\nbflinter: 2\n", false}, // the word as a value, then a longer key
		{"", false},
	}
	for _, c := range cases {
		if got := hasBflintKey([]byte(c.yaml)); got != c.want {
			t.Errorf("hasBflintKey(%q) = %v, want %v", c.yaml, got, c.want)
		}
	}
}

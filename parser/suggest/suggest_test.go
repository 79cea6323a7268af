package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"rollback", "rerun", "range", "publish"}
	cases := []struct {
		in, want string
	}{
		{"rollbak", "rollback"},  // one letter missing
		{"RERUN", "rerun"},       // case does not count
		{"pubilsh", "publish"},   // two letters swapped: distance 2
		{"rng", "range"},         // short words allow one edit more than a third of their length
		{"validation", ""},       // nothing close
		{"x", ""},                // one letter is no typo of anything here
		{"", ""},                 // nothing to match
		{"rollback", "rollback"}, // exact
	}
	for _, c := range cases {
		if got := Closest(c.in, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Closest("rollbak", nil); got != "" {
		t.Errorf("no candidates: got %q", got)
	}
}

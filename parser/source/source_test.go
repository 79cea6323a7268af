package source

import (
	"go/token"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLineStartsAsSetLinesForContent: the line table Add builds is the
// one go/token builds from the same content.
func TestLineStartsAsSetLinesForContent(t *testing.T) {
	cases := []string{"", "a", "\n", "a\n", "a\nb", "\n\n", "a\r\nb\r\n", "\n\na\n\n", "é\nü"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = "ab\n\r"[r.IntN(4)]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want := token.NewFileSet().AddFile("x", -1, len(c))
		want.SetLinesForContent([]byte(c))
		got := Add(token.NewFileSet(), "x", []byte(c))
		if !slices.Equal(got.tf.Lines(), want.Lines()) {
			t.Errorf("%q: lines %v, want %v", c, got.tf.Lines(), want.Lines())
		}
	}
}

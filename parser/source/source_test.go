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

// A file registered without its content gets it back, with its lines,
// only as it was registered; released, it keeps the lines asked for.
func TestReleasedFileRestoredAndReleased(t *testing.T) {
	content := []byte("select 1;\nselect é;\r\nselect 3;\n")
	fset := token.NewFileSet()
	f := AddReleased(fset, "q.sql", content)
	if f.Content != nil || f.Size() != len(content) {
		t.Fatalf("registered: content %q, size %d; want none and %d", f.Content, f.Size(), len(content))
	}
	second := f.Pos(10) // positions can be made before the content is back
	if err := f.Restore([]byte("select 2;\nselect é;\r\nselect 3;\n")); err != ErrChanged {
		t.Errorf("restored from other content of the same size: %v, want ErrChanged", err)
	}
	if err := f.Restore(content[:5]); err != ErrChanged {
		t.Errorf("restored from shorter content: %v, want ErrChanged", err)
	}
	if err := f.Restore(append([]byte(nil), content...)); err != nil {
		t.Fatal(err)
	}
	if p := fset.Position(second); p.Line != 2 || p.Column != 1 {
		t.Errorf("position after restore %v, want line 2 column 1", p)
	}
	f.Release(second, f.Pos(len(content)+5), token.NoPos)
	if f.Content != nil {
		t.Fatal("content still held after Release")
	}
	if got := f.Line(2); got != "select é;" {
		t.Errorf("kept line 2 = %q", got)
	}
	if got := f.Line(1); got != "" {
		t.Errorf("line 1 was not asked for, got %q", got)
	}
	if p := fset.Position(f.Pos(22)); p.Line != 3 {
		t.Errorf("the line table went with the content: %v", p)
	}
}

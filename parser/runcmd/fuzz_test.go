package runcmd

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that any line either fails with an offset inside it, at
// the quote or expansion left open, or yields words whose every byte comes
// from the byte of the line it points at. Its seed corpus is
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, line string) {
		cmds, err := Parse(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset >= len(line) {
				t.Fatalf("error %v is not a SyntaxError inside the line", err)
			}
			if !strings.ContainsRune("'\"$`", rune(line[se.Offset])) {
				t.Fatalf("error %v points at %q, not at what was left open", err, line[se.Offset])
			}
			return
		}
		check := func(w Word) {
			if w.Offset < 0 || w.Offset > w.End || w.End > len(line) || len(w.offs) != len(w.Value) {
				t.Fatalf("word %q spans %d..%d of a %d-byte line", w.Value, w.Offset, w.End, len(line))
			}
			for i, off := range w.offs {
				if off < w.Offset || off >= w.End || line[off] != w.Value[i] {
					t.Fatalf("byte %d of word %q points at %d", i, w.Value, off)
				}
			}
		}
		for _, c := range cmds {
			for _, w := range append(c.Assignments, c.Words...) {
				check(w)
			}
			if d := c.DBT; d != nil {
				for _, w := range append(d.Select, d.Exclude...) {
					check(w)
				}
				for _, tm := range []*Time{d.EventTimeStart, d.EventTimeEnd} {
					if tm != nil && tm.Value != nil {
						check(tm.Flag)
						check(*tm.Value)
					}
				}
			}
			if a := c.Airflow; a != nil {
				for _, tm := range []*Time{a.Start, a.End} {
					if tm != nil && tm.Value != nil {
						check(tm.Flag)
						check(*tm.Value)
					}
				}
			}
		}
	})
}

package plan

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/parser/source"
)

// FuzzParse reads arbitrary bytes as a plan: it must never panic, and every
// problem it reports must point into the file.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"../../examples/*/*.backfill.yaml", "../../testdata/rules/*/*.backfill.yaml"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		"bflint: 1\nrange: {start: 2026-02-30, end: [x]}\n",
		"a: &a [*a]\n",
		"bflint: 1\nvalidation:\n  checks:\n    - control: {start: 2026-01, end: 2025-13}\n",
		"\xef\xbb\xbfbflint: 1\r\nid: x\r\n",
		"- - - - [",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		fset := token.NewFileSet()
		file := source.Add(fset, "fuzz.backfill.yaml", content)
		p := Parse(file)
		for _, pr := range p.Problems {
			if !file.Contains(pr.Pos) {
				t.Fatalf("problem %q at a position outside the file", pr.Message)
			}
		}
		p.Bounds()
		p.References()
	})
}

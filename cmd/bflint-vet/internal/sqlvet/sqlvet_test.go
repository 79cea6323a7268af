package sqlvet_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bflint/bflint/cmd/bflint-vet/internal/sqlvet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer checks the want comments of testdata/src: which calls are
// recognised as sending SQL (database/sql by receiver type, look-alikes by
// signature), which are not, and that findings carry code and name.
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sqlvet.Analyzer, "queries")
}

// TestPositions checks where findings land: inside a literal whose bytes
// are the SQL's, at the relation the rule names, on the right line of a
// multi-line raw string; at the start of the expression otherwise.
func TestPositions(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), sqlvet.Analyzer, "positions")
	var got []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			src, err := os.ReadFile(p.Filename)
			if err != nil {
				t.Fatal(err)
			}
			line := strings.Split(string(src), "\n")[p.Line-1]
			got = append(got, strings.TrimSpace(fmt.Sprintf("%d: %.20s", p.Line, line[p.Column-1:])))
		}
	}
	want := []string{
		`8: analytics.fct_orders`,
		`10: analytics.fct_orders`,
		`11: "INSERT INTO analyti`,
		`12: appendSQL)`,
		`13: "INSERT INTO " + "an`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("positions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

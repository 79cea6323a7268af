package rules

import (
	"go/token"
	"testing"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
)

// FuzzDirectives reads arbitrary comments and files for bflint:ignore
// directives, in YAML and in SQL: nothing may panic, and every directive
// must point into its file and govern a span inside it.
func FuzzDirectives(f *testing.F) {
	for _, s := range []string{
		"# bflint:ignore BF601 the table format keeps 90 days\nbflint: 1\n",
		"rollback:  # bflint:ignore BF601,BF602 reason\n",
		"-- bflint:ignore BF201 staging is truncated first\nINSERT INTO t SELECT 1;\nSELECT 1; -- bflint:ignore BF20\n",
		"# bflint:ignore\n", "/* bflint:ignore BF701 */ SELECT 1", "'# bflint:ignore BF601' # bflint:ignore BF601 x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ParseDirective(text)
		fset := token.NewFileSet()
		yamlFile := source.Add(fset, "p.backfill.yaml", []byte(text))
		sqlFile := &SQLFile{Source: source.Add(fset, "q.sql", []byte(text)), Parsed: sqlparse.Parse(text, sqlparse.Options{})}
		check := func(f *source.File, ds []*Directive) {
			for _, d := range ds {
				if !f.Contains(d.Pos) || (d.From.IsValid() && (!f.Contains(d.From) || !f.Contains(d.To) || d.To < d.From)) {
					t.Fatalf("directive %q spans outside %s", d.Reason, f.Name)
				}
			}
		}
		check(yamlFile, YAMLDirectives(yamlFile))
		check(sqlFile.Source, SQLDirectives(sqlFile))
	})
}

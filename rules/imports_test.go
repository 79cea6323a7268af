package rules

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRulesReadFactsOnly keeps the rules on the fact model: no rule
// package reads a parse tree (pg_query) or asks a particular reader (the
// token reader) for what it knows, so a fact is computed once and means
// the same whichever reader read the statement.
func TestRulesReadFactsOnly(t *testing.T) {
	forbidden := map[string]string{
		"github.com/pganalyze/pg_query_go/v5":                "parse trees",
		"github.com/bflint/bflint/parser/sqlparse/tokenread": "the token reader",
	}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if what, bad := forbidden[p]; bad {
				t.Errorf("%s imports %s: rules read %s only through parser/sqlparse and its fact types", path, p, what)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d Go files under rules/", files)
	}
}

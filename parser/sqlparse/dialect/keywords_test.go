package dialect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// TestKeywordCasesAreKeywords keeps keyword's shortcut true: it reads only
// the words of sqltext's keyword table, so every word it switches on, and
// every reserved column word, must be in that table.
func TestKeywordCasesAreKeywords(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "dialect.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "keyword" {
			continue
		}
		for _, st := range fd.Body.List {
			sw, ok := st.(*ast.SwitchStmt)
			if !ok {
				continue
			}
			for _, c := range sw.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					lit, ok := e.(*ast.BasicLit)
					if !ok {
						t.Fatalf("keyword's case %T is not a string literal: the test cannot check it", e)
					}
					s, _ := strconv.Unquote(lit.Value)
					labels = append(labels, s)
				}
			}
		}
	}
	if len(labels) < 50 {
		t.Fatalf("found %d case labels in keyword: the test no longer finds its switch", len(labels))
	}
	for w := range reservedColumns {
		labels = append(labels, w)
	}
	// dashedProject reads the word before a dashed name with Keyword too.
	for w := range beforeTablePath {
		labels = append(labels, w)
	}
	for _, w := range labels {
		if !sqltext.IsKeyword(w) {
			t.Errorf("%s is read by keyword but missing from sqltext's keyword table", w)
		}
	}
}

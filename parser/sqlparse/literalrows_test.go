package sqlparse

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

func TestBlankLiteralRows(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{
			"a lookup table keeps its first row",
			"SELECT * FROM (VALUES\n  (0xab, 'Ünïcode', -1.5),\n  (0xcd, NULL, DATE '2026-01-01'),\n  (0xef, TRUE, +2)\n) AS t (a, b, c)",
			"SELECT * FROM (VALUES\n  (0xab, 'Ünïcode', -1.5) \n" + strings.Repeat(" ", 34) + "\n" + strings.Repeat(" ", 18) + "\n) AS t (a, b, c)",
		},
		{
			"a row with a column ends the rows blanked",
			"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, x), (5, 'e')",
			"INSERT INTO t VALUES (1, 'a')" + strings.Repeat(" ", 20) + ", (4, x), (5, 'e')",
		},
		{"two rows are parsed as written", "VALUES (1), (2)", "VALUES (1), (2)"},
		{"a parameter is not a literal", "INSERT INTO log VALUES (@run, 1), (2, 3), (4, 5)", "INSERT INTO log VALUES (@run, 1), (2, 3), (4, 5)"},
		{"a first row that calls is parsed, literal rows after it are not", "VALUES (now()), (1), (2)", "VALUES (now())" + strings.Repeat(" ", 10)},
		{
			"typed literals and arrays are constants",
			"VALUES (UINT256 '1', array['a', 'b']), (UINT256 '2', ARRAY[]), (uint256 '3', array[1, -2])",
			"VALUES (UINT256 '1', array['a', 'b'])" + strings.Repeat(" ", 53),
		},
		{
			"rows that call what the first row calls, on other literals",
			"VALUES ('a', date('2022-10-01'), now()), ('b', date('2023-01-01'), now()), ('c', DATE('2024-01-01'), NOW())",
			"VALUES ('a', date('2022-10-01'), now())" + strings.Repeat(" ", 68),
		},
		{
			"a call the first row does not make ends the rows blanked",
			"VALUES (1, date('2022-10-01')), (2, date('2022-10-02')), (3, date('2022-10-03')), (4, current_date()), (5, date('2022-10-05'))",
			"VALUES (1, date('2022-10-01'))" + strings.Repeat(" ", 50) + ", (4, current_date()), (5, date('2022-10-05'))",
		},
		{"a call on a column is not a constant", "VALUES (lower(x)), (lower(y)), (lower(z))", "VALUES (lower(x)), (lower(y)), (lower(z))"},
		{"a subquery is not a constant", "VALUES ((SELECT 1)), ((SELECT 2)), ((SELECT 3))", "VALUES ((SELECT 1)), ((SELECT 2)), ((SELECT 3))"},
	} {
		toks, _ := sqltext.Lex(tt.in)
		got := blankLiteralRows(tt.in, sqltext.Code(toks))
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if len(got) != len(tt.in) || strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("%s: offsets or lines moved", tt.name)
		}
	}
}

// A statement with a long VALUES list is parsed with its rows blanked:
// the same statement, the same problems at the same places.
func TestLiteralRowsParseTheSame(t *testing.T) {
	rows := strings.Repeat("(1, 'ä'),\n", 50)
	src := "SELECT * FROM (VALUES " + rows + "(2, 'b')) AS t (a, b) WHERE a >\n"
	f := Parse(src, Options{})
	if len(f.Statements) != 1 || f.Statements[0].Problem == nil {
		t.Fatalf("want the statement's syntax error, got %+v", f.Statements)
	}
	// The parser stops at the end of the input, past the blanked rows:
	// the offset is the original text's.
	if p := f.Statements[0].Problem; !strings.Contains(p.Msg, "syntax error at end of input") || p.Offset != len(src) {
		t.Errorf("problem %q at %d, want the end of input at %d", p.Msg, p.Offset, len(src))
	}
	g := Parse("SELECT a FROM (VALUES "+rows+"(2, 'b')) AS t (a, b) WHERE a > 1", Options{})
	if g.Statements[0].Node == nil || len(g.Statements[0].Conditions()) != 1 {
		t.Errorf("the blanked statement should parse with its WHERE")
	}
}

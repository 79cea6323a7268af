package sqlparse

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// at returns "line:col" (1-based, byte columns) of an offset in src.
func TestStatementSpansSkipCommentsAbove(t *testing.T) {
	src := "-- header\r\n/* block */\r\nSELECT 1;\r\n\t-- second\r\n\tDELETE FROM t WHERE a = 'é';\r\nUPDATE t SET a = 1"
	f := Parse(src, Options{})
	var got []string
	for _, st := range f.Statements {
		if st.Problem != nil {
			t.Fatalf("statement at %s: %s", facttest.At(src, st.Start), st.Problem.Msg)
		}
		got = append(got, facttest.At(src, st.Start)+" "+strings.TrimSpace(src[st.Start:st.End]))
	}
	want := []string{"3:1 SELECT 1;", "5:2 DELETE FROM t WHERE a = 'é';", "6:1 UPDATE t SET a = 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(f.Comments) != 3 || f.Comments[0].Text != "header" || f.Comments[1].Text != "block" {
		t.Errorf("comments: %+v", f.Comments)
	}
}

func TestParseErrorPointsAtTheConstruct(t *testing.T) {
	// Multi-byte characters and a tab before the fault: the position must
	// still land on the offending word.
	src := "SELECT 'naïve' AS a,\tx FROM t;\nSELECT 'über' FROM t WHERE WHERE x;\nSELECT 2;"
	f := Parse(src, Options{})
	if len(f.Statements) != 3 {
		t.Fatalf("got %d statements", len(f.Statements))
	}
	bad := f.Statements[1]
	if bad.Problem == nil {
		t.Fatal("the second statement should not parse")
	}
	if got := facttest.At(src, bad.Problem.Offset); got != "2:29" || !strings.Contains(bad.Problem.Msg, `syntax error at or near "WHERE"`) {
		t.Errorf("problem at %s: %s", got, bad.Problem.Msg)
	}
	if f.Statements[0].Node == nil || f.Statements[2].Node == nil {
		t.Error("the statements around the bad one must still parse")
	}
}

func TestLexFaultKeepsEarlierStatements(t *testing.T) {
	src := "SELECT 1;\nINSERT INTO t VALUES ('open;\nSELECT 3;"
	f := Parse(src, Options{})
	if len(f.Statements) != 2 || f.Statements[0].Node == nil {
		t.Fatalf("want the first statement parsed and the rest reported, got %d", len(f.Statements))
	}
	tail := f.Statements[1]
	if tail.Problem == nil || facttest.At(src, tail.Start) != "2:1" || facttest.At(src, tail.Problem.Offset) != "2:23" || tail.Problem.Msg != "unterminated string" {
		t.Errorf("tail: start %s problem %+v", facttest.At(src, tail.Start), tail.Problem)
	}
}

func TestLimits(t *testing.T) {
	deep := "SELECT " + strings.Repeat("(", tree.MaxNesting+1) + "1" + strings.Repeat(")", tree.MaxNesting+1)
	cases := map[string]struct{ src, msg string }{
		"nesting": {deep, "nests parentheses more than 500 deep"},
		"NUL":     {"SELECT 1;\nSELECT '\x00';", "NUL byte"},
		"UTF-8":   {"SELECT 'a\xffb';", "invalid UTF-8"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := Parse(c.src, Options{})
			var msgs []string
			for _, st := range f.Statements {
				if st.Problem != nil {
					msgs = append(msgs, st.Problem.Msg)
				}
			}
			if len(msgs) != 1 || !strings.Contains(msgs[0], c.msg) {
				t.Errorf("problems %q, want one containing %q", msgs, c.msg)
			}
		})
	}
}

func TestJinjaModel(t *testing.T) {
	src := `{{ config(materialized='incremental', incremental_strategy="merge", unique_key=['order_id', 'line']) }}
-- a model
select o.order_id, {{ dbt_utils.star(ref('customers')) }}
from {{ ref('stg_orders') }} o
join {{ source('shop', 'customers') }} c on c.id = o.customer_id
{% if is_incremental() %}
where o.updated_at > (select max(updated_at) from {{ this }})
{% else %}
where o.updated_at >= '2020-01-01'
{% endif %}`
	f := Parse(src, Options{ModelName: "fct_orders"})
	if f.Model == nil || f.Model.Materialized != "incremental" || f.Model.IncrementalStrategy != "merge" || strings.Join(f.Model.UniqueKey, ",") != "order_id,line" {
		t.Fatalf("model config: %+v", f.Model)
	}
	if len(f.Statements) != 2 {
		t.Fatalf("want one statement per is_incremental() branch, got %d", len(f.Statements))
	}
	for _, st := range f.Statements {
		if st.Problem != nil {
			t.Fatalf("%s: %s\n%s", st.Variant, st.Problem.Msg, st.Text)
		}
		if facttest.At(src, st.Start) != "3:1" {
			t.Errorf("%s starts at %s, want 3:1 (after config and the comment)", st.Variant, facttest.At(src, st.Start))
		}
	}
	inc, full := f.Statements[0], f.Statements[1]
	if inc.Variant != "incremental" || !strings.Contains(inc.Text, "from  fct_orders") || strings.Contains(inc.Text, "2020-01-01") {
		t.Errorf("incremental text:\n%s", inc.Text)
	}
	if full.Variant != "full" || !strings.Contains(full.Text, "2020-01-01") || !strings.Contains(full.Text, "shop.customers") {
		t.Errorf("full text:\n%s", full.Text)
	}
}

func TestUnbalancedJinja(t *testing.T) {
	src := "select 1\n{% if var('x') %}\nfrom t\n{% endfor %}"
	f := Parse(src, Options{})
	var msgs []string
	for _, p := range f.Problems {
		msgs = append(msgs, facttest.At(src, p.Offset)+" "+p.Msg)
	}
	want := "4:1 Jinja {% endfor %} closes no {% for %}\n2:1 Jinja {% if %} is never closed with {% endif %}"
	if strings.Join(msgs, "\n") != want {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), want)
	}
}

func TestOffsetMapThroughRewrites(t *testing.T) {
	src := "CREATE OR REPLACE TRANSIENT TABLE `proj.ds.t` AS SELECT bad bad bad FROM x"
	f := Parse(src, Options{})
	st := f.Statements[0]
	if st.Flags&dialect.CreateOrReplace == 0 {
		t.Error("CREATE OR REPLACE not marked")
	}
	if st.Problem == nil || facttest.At(src, st.Problem.Offset) != "1:65" {
		t.Fatalf("want the error on the third 'bad' at 1:65, got %+v (text %q)", st.Problem, st.Text)
	}
}

func TestStatementCountLimit(t *testing.T) {
	src := strings.Repeat("SELECT 1;\n", MaxStatements+5)
	f := Parse(src, Options{ReadBudget: unlimited})
	if len(f.Statements) != MaxStatements+1 {
		t.Fatalf("got %d statements, want the first %d and one for the rest", len(f.Statements), MaxStatements)
	}
	tail := f.Statements[len(f.Statements)-1]
	if tail.Problem == nil || facttest.At(src, tail.Start) != strconv.Itoa(MaxStatements+1)+":1" || !strings.Contains(tail.Problem.Msg, "more than 100000 statements") {
		t.Errorf("tail at %s: %+v", facttest.At(src, tail.Start), tail.Problem)
	}
	// The rest counts as the statements it holds, for the coverage.
	if tail.Unread != 5 {
		t.Errorf("the rest holds %d statements, want 5", tail.Unread)
	}
}

// A file of exactly the limit, ending in a newline or a comment, is all
// read: what follows its last statement is no statement.
func TestStatementCountAtTheLimit(t *testing.T) {
	for _, end := range []string{"", "\n\n", "-- the end\n"} {
		f := Parse(strings.Repeat("SELECT 1;\n", MaxStatements)+end, Options{ReadBudget: unlimited})
		if len(f.Statements) != MaxStatements || f.Statements[len(f.Statements)-1].Problem != nil {
			t.Errorf("ending %q: %d statements, the last with problem %v", end, len(f.Statements), f.Statements[len(f.Statements)-1].Problem)
		}
	}
}

// A file past statementsWindow is lexed only a little past its limit-th
// statement: the tail is one statement, starting where its code does.
func TestStatementCountLimitOfALargeFile(t *testing.T) {
	line := "SELECT a, b, c FROM t WHERE d = 1;\n"
	src := "-- a comment; with a semicolon\n" + strings.Repeat(line, max(MaxStatements, statementsWindow/len(line))+10)
	f := Parse(src, Options{ReadBudget: unlimited})
	if len(f.Statements) != MaxStatements+1 {
		t.Fatalf("got %d statements, want the first %d and one for the rest", len(f.Statements), MaxStatements)
	}
	tail := f.Statements[len(f.Statements)-1]
	if tail.Problem == nil || facttest.At(src, tail.Start) != strconv.Itoa(MaxStatements+2)+":1" || tail.End != len(src) {
		t.Errorf("tail at %s to %d: %+v", facttest.At(src, tail.Start), tail.End, tail.Problem)
	}
}

// unlimited is a read budget no test file reaches, for the tests of the
// other limits.
const unlimited = 1 << 40

// Once the statements read fill the budget, the rest of the file is one
// statement reported as not read; a later reason to stop (here, the
// statement limit) is not reported again.
func TestReadBudget(t *testing.T) {
	line := "SELECT a FROM t;\n"
	src := strings.Repeat(line, MaxStatements+10)
	f := Parse(src, Options{ReadBudget: 64 << 10})
	n := len(f.Statements)
	if n < 2 || n > 1000 {
		t.Fatalf("got %d statements, want the few that fill 64 KiB and one for the rest", n)
	}
	for _, st := range f.Statements[:n-1] {
		if st.Node == nil {
			t.Fatalf("statement at %s within the budget not parsed: %v", facttest.At(src, st.Start), st.Problem)
		}
	}
	rest := f.Statements[n-1]
	if rest.Text != "" || rest.End != len(src) || rest.Start != (n-1)*len(line) || rest.Problem == nil || !strings.Contains(rest.Problem.Msg, "MiB it has for one file") {
		t.Errorf("rest %d-%d of %d: %+v", rest.Start, rest.End, len(src), rest.Problem)
	}
	// A statement read from its tokens counts against the budget too.
	bad := strings.Repeat("SELECT FROM FROM t;\n", 20_000)
	if got := Parse(bad, Options{ReadBudget: 64 << 10}); len(got.Statements) > 1000 {
		t.Errorf("statements the parser rejects: %d read within 64 KiB", len(got.Statements))
	}
}

// A file past MaxFileBytes is read up to its last statement that ends
// within it, a single statement longer than it not at all.
func TestFileBytesLimit(t *testing.T) {
	line := "SELECT order_id, amount, order_date FROM raw.orders WHERE order_date = '2026-01-14';\n"
	src := strings.Repeat(line, MaxFileBytes/len(line)+1000)
	f := Parse(src, Options{ReadBudget: unlimited})
	rest := f.Statements[len(f.Statements)-1]
	if rest.Problem == nil || !strings.Contains(rest.Problem.Msg, "larger than 4 MiB") || rest.Start != MaxFileBytes/len(line)*len(line) {
		t.Errorf("rest at %d: %+v", rest.Start, rest.Problem)
	}
	// The rest counts as the statements it holds, one per line not read.
	if want := len(src)/len(line) - (len(f.Statements) - 1); rest.Unread != want {
		t.Errorf("the rest holds %d statements, want %d", rest.Unread, want)
	}
	one := "SELECT " + strings.Repeat("a, ", MaxFileBytes/3) + "b FROM t;\n"
	f = Parse(one, Options{})
	if len(f.Statements) != 1 || f.Statements[0].Start != 0 || f.Statements[0].Problem == nil || !strings.Contains(f.Statements[0].Problem.Msg, "larger than 4 MiB") {
		t.Errorf("one long statement: %d statements, first %+v", len(f.Statements), f.Statements[0].Problem)
	}
}

func TestTooDeep(t *testing.T) {
	for _, c := range []struct {
		name, src string
		deep      bool
	}{
		{"a chain of sums", "SELECT " + strings.Repeat("1 + ", tree.MaxDepth+1) + "1", true},
		{"a chain at the limit", "SELECT " + strings.Repeat("1 + ", tree.MaxDepth) + "1", false},
		{"set operations", strings.Repeat("SELECT 1 UNION ALL ", tree.MaxDepth+1) + "SELECT 1", true},
		{"set operations in lower case", strings.Repeat("select 1 union all ", tree.MaxDepth+1) + "select 1", true},
		{"lower-case AND chains are flat", "select 1 where " + strings.Repeat("a = 1 and b = 2 or ", 3*tree.MaxDepth) + "true", false},
		{"brackets and operators add up", "SELECT " + strings.Repeat("1 + 1 + 1 + 1 + (", 450) + "1" + strings.Repeat(")", 450), true},
		{"list items are siblings", "SELECT " + strings.Repeat("a + 1, ", 3*tree.MaxDepth) + "1", false},
		{"AND and OR chains are flat", "SELECT 1 WHERE " + strings.Repeat("a = 1 AND b = 2 OR ", 3*tree.MaxDepth) + "TRUE", false},
		{"CASE branches are siblings", "SELECT CASE " + strings.Repeat("WHEN a = 1 THEN b + 1 ", 3*tree.MaxDepth) + "END", false},
		{"an unbalanced closing bracket", strings.Repeat(")", 10) + "SELECT 1", false},
	} {
		toks, err := sqltext.Lex(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, what, deep := tree.TooDeep(c.src, sqltext.Code(toks)); deep != c.deep {
			t.Errorf("%s: deep %v (%s), want %v", c.name, deep, what, c.deep)
		}
	}
}

// dbt runs the is_incremental() branch of an incremental model only: a
// model known to be a table or a view is read as its full refresh alone,
// the project's resolution winning over the file's config().
func TestOnlyRunnableReadingsAreRead(t *testing.T) {
	body := "select a from {{ ref('x') }}\n{% if is_incremental() %} where a > (select max(a) from {{ this }}) {% endif %}\n"
	for _, tt := range []struct {
		config, materialized string
		want                 []string
	}{
		{"{{ config(materialized='table') }}\n", "", []string{"full"}},
		{"{{ config(materialized='incremental') }}\n", "", []string{"incremental", "full"}},
		{"", "", []string{"incremental", "full"}},
		{"{{ config(materialized='incremental') }}\n", "view", []string{"full"}},
		{"", "incremental", []string{"incremental", "full"}},
	} {
		var got []string
		for _, st := range Parse(tt.config+body, Options{ModelName: "m", Materialized: tt.materialized}).Statements {
			got = append(got, st.Variant)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("config %q, materialized %q: readings %v, want %v", tt.config, tt.materialized, got, tt.want)
		}
	}
}

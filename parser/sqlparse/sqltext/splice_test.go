package sqltext

import (
	"slices"
	"strings"
	"testing"
)

// spliceCase rewrites src by replacing each Jinja token with a
// replacement and compares SplicedCode with lexing the result whole.
func spliceCase(t *testing.T, src string, replacements []string) (spliced bool) {
	t.Helper()
	toks, _ := Lex(src)
	var edits []Edit
	i := 0
	for _, tk := range toks {
		if tk.Kind == JinjaExpr || tk.Kind == JinjaTag {
			edits = append(edits, Edit{Start: int(tk.Start), End: int(tk.End), Text: replacements[i%len(replacements)]})
			i++
		}
	}
	text, m := Rewrite(src, 0, len(src), edits)
	code, ok := SplicedCode(src, toks, text, m)
	whole, _ := Lex(text)
	if want := Code(whole); ok && !slices.Equal(code, want) {
		t.Errorf("%q rewritten to %q:\nspliced %v\nlexed   %v", src, text, code, want)
	}
	return ok
}

func TestSplicedCodeReadsAsLex(t *testing.T) {
	sources := []string{
		"select a from {{ ref('x') }} where b = 1",
		"select a from {{ ref('x') }}{{ suffix }} join y using (k)",
		"select {{ col }}_id, 'it''s' from t -- {{ note }}\nwhere x > {{ var('d') }}",
		"select 1 from t where d = '{{ ds }}' and e = {{ ds }}",
		"{% if is_incremental() %} where ts > (select max(ts) from {{ this }}) {% endif %}",
		"select a/*{{ x }}*/ from b{{ c }} where x::{{ typ }} = 1",
		"select $1, @p{{ x }}, :q from t",
		"select r{{ x }}'raw' from t",
		"select a, {{ x }}.b from t",
	}
	replacements := [][]string{
		{"schema.table"}, {" "}, {""}, {"__jinja__"}, {"'s'"}, {"(select 1)"}, {"a b", "c"}, {"--"}, {"/*"}, {"x'"}, {"1.5"}, {"="},
	}
	var spliced, all int
	for _, src := range sources {
		for _, r := range replacements {
			all++
			if spliceCase(t, src, r) {
				spliced++
			}
		}
	}
	// The check must not fall back everywhere, or it proves nothing.
	if spliced < all/3 {
		t.Errorf("spliced %d of %d rewrites", spliced, all)
	}
}

// What could be read otherwise is lexed whole.
func TestSplicedCodeRefuses(t *testing.T) {
	for _, c := range []struct{ src, with string }{
		{"select a{{ x }} from t", "b"},              // two words would join
		{"select 1 from t {{ x }}\n# note\n", "y"},   // a hash comment
		{"select 'a\\'' , {{ x }} from t", "y"},      // a backslash
		{"select '''a''' , {{ x }} from t", "y"},     // triple quotes
		{"select 1 {{ x }} from t", "'unterminated"}, // a replacement that does not lex
	} {
		toks, _ := Lex(c.src)
		var edits []Edit
		for _, tk := range toks {
			if tk.Kind == JinjaExpr {
				edits = append(edits, Edit{Start: int(tk.Start), End: int(tk.End), Text: c.with})
			}
		}
		text, m := Rewrite(c.src, 0, len(c.src), edits)
		if _, ok := SplicedCode(c.src, toks, text, m); ok {
			t.Errorf("%q rewritten to %q was spliced", c.src, text)
		}
	}
}

func FuzzSplicedCode(f *testing.F) {
	f.Add("select a from {{ ref('x') }} where b = 1", "schema.t")
	f.Add("select {{ a }}, {{ b }} from t -- c\n", "1")
	f.Add("select x from t where y = {{ v }} /* z */", "'q'")
	f.Fuzz(func(t *testing.T, src, with string) {
		if strings.Count(src, "{{") > 50 {
			return
		}
		spliceCase(t, src, []string{with})
	})
}

func TestCountStatementsCountsAsSplit(t *testing.T) {
	for _, src := range []string{
		"select 1; select 2;",
		"select 1; select ';' from t; -- a; b\nselect (1;2); /* ; */ select 3",
		"select 1;;  ;\n-- only a comment\n",
		"insert into t values ('a;b', \"c;d\", `e;f`); select 1",
		"",
	} {
		toks, _ := Lex(src)
		want := 0
		for _, p := range Split(src, toks) {
			if holdsCode(src, toks, p) {
				want++
			}
		}
		if got := CountStatements(src); got != want {
			t.Errorf("CountStatements(%q) = %d, Split cuts %d statements", src, got, want)
		}
	}
}

// holdsCode reports whether a piece holds code other than its ";".
func holdsCode(src string, toks []Token, p Piece) bool {
	for _, t := range toks {
		if int(t.Start) >= p.Start && int(t.End) <= p.End && t.IsCode() && t.Text(src) != ";" {
			return true
		}
	}
	return false
}

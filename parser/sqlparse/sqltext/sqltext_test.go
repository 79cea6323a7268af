package sqltext

import (
	"slices"
	"strings"
	"testing"
)

// kinds renders the code tokens of src as "Kind:text" for comparison.
func kinds(src string, toks []Token) string {
	names := map[TokenKind]string{Word: "W", QuotedIdent: "Q", Backtick: "B", String: "S", Number: "N", Param: "P",
		Punct: ".", Operator: "O", JinjaExpr: "JE", JinjaTag: "JT", JinjaNote: "JN", LineComment: "LC", BlockComment: "BC"}
	var out []string
	for _, t := range toks {
		if t.Kind == Space {
			continue
		}
		out = append(out, names[t.Kind]+":"+t.Text(src))
	}
	return strings.Join(out, " ")
}

func TestLex(t *testing.T) {
	cases := []struct{ src, want string }{
		{"SELECT a, 1.5 FROM t;", "W:SELECT W:a .:, N:1.5 W:FROM W:t .:;"},
		{`SELECT "Col", ` + "`proj.ds.t`" + `, $1, @day, :name`, "W:SELECT Q:\"Col\" .:, B:`proj.ds.t` .:, P:$1 .:, P:@day .:, P::name"},
		{"SELECT 'it''s', $tag$a;b$tag$, r'\\d', '''x'''", "W:SELECT S:'it''s' .:, S:$tag$a;b$tag$ .:, S:r'\\d' .:, S:'''x'''"},
		{"a >= b -- note\n/* x /* nested */ y */ c", "W:a O:>= W:b LC:-- note BC:/* x /* nested */ y */ W:c"},
		{"{{ ref('m') }} {% if x %} {# c #}", "JE:{{ ref('m') }} JT:{% if x %} JN:{# c #}"},
		// The closing marks inside a Jinja string close nothing; an open
		// quote leaves the first marks closing the block.
		{`{{ config(post_hook=["{{ cleanup('d', 30) }}"]) }} x`, `JE:{{ config(post_hook=["{{ cleanup('d', 30) }}"]) }} W:x`},
		{`{% set s = "%}" %} y`, `JT:{% set s = "%}" %} W:y`},
		{`{{ it's }} z`, `JE:{{ it's }} W:z`},
		{"# hash comment\nSELECT 1", "LC:# hash comment W:SELECT N:1"},
		// dbt renders Jinja in a literal before the SQL is read: its
		// quotes end nothing; a template that never closes is text.
		{`'{{ x | replace("'", "''") }}' AS a, "{% if y %}'{% endif %}" b`, `S:'{{ x | replace("'", "''") }}' W:AS W:a .:, Q:"{% if y %}'{% endif %}" W:b`},
		{`'{{ x' AS a`, `S:'{{ x' W:AS W:a`},
		{"SELECT a, // Snowflake's comment\n  b/2 FROM t WHERE u = 'http://x'", "W:SELECT W:a .:, LC:// Snowflake's comment W:b O:/ N:2 W:FROM W:t W:WHERE W:u O:= S:'http://x'"},
	}
	for _, c := range cases {
		toks, err := Lex(c.src)
		if err != nil {
			t.Errorf("Lex(%q): %v", c.src, err)
			continue
		}
		if got := kinds(c.src, toks); got != c.want {
			t.Errorf("Lex(%q)\n got %s\nwant %s", c.src, got, c.want)
		}
		// Tokens cover the source without gaps.
		end := 0
		for _, tk := range toks {
			if int(tk.Start) != end {
				t.Errorf("Lex(%q): gap before offset %d", c.src, int(tk.Start))
			}
			end = int(tk.End)
		}
		if end != len(c.src) {
			t.Errorf("Lex(%q): tokens end at %d of %d", c.src, end, len(c.src))
		}
	}
}

func TestLexBackslashEscapes(t *testing.T) {
	// Read the PostgreSQL way the string would end at the second quote and
	// a word would follow it at once: the file is read again with escapes.
	src := `SELECT 'it\'s' AS a`
	toks, err := Lex(src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(src, toks), `W:SELECT S:'it\'s' W:AS W:a`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Without that sign a backslash is a plain character.
	src = `SELECT 'C:\' AS dir`
	toks, err = Lex(src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(src, toks), `W:SELECT S:'C:\' W:AS W:dir`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestLexQuoteDialects(t *testing.T) {
	cases := []struct{ why, src, want string }{
		{
			"three quotes that never close are a quote and a doubled one, as Snowflake reads them",
			`SELECT 'p[''' || REPLACE(x, '.', '''][''') || ''']' AS path`,
			`W:SELECT S:'p[''' O:|| W:REPLACE .:( W:x .:, S:'.' .:, S:'''][''' .:) O:|| S:''']' W:AS W:path`,
		},
		{
			"three quotes that close are BigQuery's triple-quoted string",
			`SELECT '''it's''' AS a`,
			`W:SELECT S:'''it's''' W:AS W:a`,
		},
		{
			"a backslash escaping a double quote, shown by a name that would run over a line",
			"SELECT f(\"a\\\"\", x),\n  f(\"b\")",
			`W:SELECT W:f .:( Q:"a\"" .:, W:x .:) .:, W:f .:( Q:"b" .:)`,
		},
		{
			"a backtick name right after an operator",
			"SELECT ~`bits`, STRUCT<`end` DATE>",
			"W:SELECT O:~ B:`bits` .:, W:STRUCT O:< B:`end` W:DATE O:>",
		},
	}
	for _, c := range cases {
		toks, err := Lex(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.why, err)
			continue
		}
		if got := kinds(c.src, toks); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.why, got, c.want)
		}
	}
}

func TestLexStops(t *testing.T) {
	cases := []struct {
		src    string
		offset int
		msg    string
		before string
	}{
		{"SELECT 1; SELECT 'open", 17, "unterminated", "W:SELECT N:1 .:; W:SELECT"},
		{"SELECT 1;\x00junk", 9, "NUL byte", "W:SELECT N:1 .:;"},
		{"SELECT 1 /* open", 9, "unterminated", "W:SELECT N:1"},
	}
	for _, c := range cases {
		toks, err := Lex(c.src)
		if err == nil || err.Offset != c.offset || !strings.Contains(err.Msg, c.msg) {
			t.Errorf("Lex(%q): error %+v, want %q at %d", c.src, err, c.msg, c.offset)
		}
		if got := kinds(c.src, toks); got != c.before {
			t.Errorf("Lex(%q): tokens before the fault %s, want %s", c.src, got, c.before)
		}
	}
}

func TestRewriteMapsBack(t *testing.T) {
	src := "SELECT a FROM `p.d.t` WHERE x"
	edits := SortEdits([]Edit{
		{Start: 14, End: 21, Text: `"p.d.t"`}, // same length
		{Start: 7, End: 8, Text: "alpha"},     // longer
		{Start: 8, End: 8, Text: ""},          // an empty insertion changes nothing
		{Start: 7, End: 9, Text: "zz"},        // overlaps the first at 7: dropped
	})
	if len(edits) != 3 {
		t.Fatalf("SortEdits kept %d edits, want 3 (the overlapping one dropped): %+v", len(edits), edits)
	}
	out, m := Rewrite(src, 0, len(src), edits)
	if want := `SELECT alpha FROM "p.d.t" WHERE x`; out != want {
		t.Fatalf("Rewrite = %q, want %q", out, want)
	}
	for _, c := range []struct{ out, orig int }{
		{0, 0},                       // copied text maps one to one
		{strings.Index(out, "a"), 7}, // replacement text maps to what it replaced
		{strings.Index(out, "ha"), 7},
		{strings.Index(out, "FROM"), 9},
		{strings.Index(out, "WHERE"), strings.Index(src, "WHERE")},
	} {
		if got := m.Orig(c.out); got != c.orig {
			t.Errorf("Orig(%d) = %d, want %d", c.out, got, c.orig)
		}
	}
	// A statement no edit touches shares the file's text.
	out, m = Rewrite(src, 22, len(src), edits)
	if out != "WHERE x" || m.Orig(0) != 22 || m.Orig(6) != 28 {
		t.Errorf("untouched statement: %q, Orig(0)=%d, Orig(6)=%d", out, m.Orig(0), m.Orig(6))
	}
}

// An insertion at the end of the text belongs to the statement that ends
// there; one where a statement ends mid-text belongs to the next.
func TestRewriteInsertsAtTheEnd(t *testing.T) {
	src := "SELECT 1; SELECT x FROM t JOIN u"
	edits := []Edit{{Start: 9, End: 9, Text: "/* next */"}, {Start: len(src), End: len(src), Text: " ON TRUE"}}
	if out, _ := Rewrite(src, 0, 9, edits); out != "SELECT 1;" {
		t.Errorf("first statement %q, want it without the insertion after it", out)
	}
	out, m := Rewrite(src, 9, len(src), edits)
	if want := "/* next */ SELECT x FROM t JOIN u ON TRUE"; out != want {
		t.Errorf("last statement %q, want %q", out, want)
	}
	if got := m.Orig(len(out) - 1); got != len(src) {
		t.Errorf("the insertion maps to %d, want %d", got, len(src))
	}
}

func TestCursor(t *testing.T) {
	src := "select f(a[1], (b)) >= x; end"
	toks, _ := Lex(src)
	c := NewCursor(src, Code(toks))
	if c.Word(0) != "SELECT" || c.Word(1) != "F" || c.Word(2) != "" || c.Word(-1) != "" || c.Word(99) != "" {
		t.Errorf("Word: %q %q %q", c.Word(0), c.Word(1), c.Word(2))
	}
	if !c.Punct(2, '(') || c.Punct(2, ')') || c.Punct(-1, '(') {
		t.Error("Punct")
	}
	ge := strings.Index(src, ">=")
	var geIndex int
	for i, tk := range Code(toks) {
		if int(tk.Start) == ge {
			geIndex = i
		}
	}
	if c.Op(geIndex) != ">=" || c.Op(0) != "" {
		t.Errorf("Op(%d) = %q", geIndex, c.Op(geIndex))
	}
	// select f ( a [ 1 ] , ( b ) ) >= x ; end
	// 0      1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
	want := Table{-1, -1, 11, -1, 6, -1, 4, -1, 10, -1, 8, 2, -1, -1, -1, -1}
	if got := c.Brackets(); !slices.Equal(got, want) {
		t.Errorf("Brackets = %v, want %v", got, want)
	}
	unbalanced := "a ) ( b"
	ut, _ := Lex(unbalanced)
	uc := NewCursor(unbalanced, Code(ut))
	if got := uc.Brackets(); !slices.Equal(got, Table{-1, -1, -1, -1}) {
		t.Errorf("unbalanced brackets = %v, want no partners", got)
	}
}

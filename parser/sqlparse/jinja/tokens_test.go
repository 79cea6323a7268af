package jinja

import (
	"slices"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

func TestJinjaTokensLendsOnlyWhenItCorrects(t *testing.T) {
	cases := []struct {
		name, src string
		lent      bool
		want      []string // the corrected code tokens' texts
		edits     int      // literals quoted again
	}{
		{"nothing to correct", "SELECT a FROM {{ ref('t') }} WHERE d = 1", false,
			[]string{"SELECT", "a", "FROM", "{{ ref('t') }}", "WHERE", "d", "=", "1"}, 0},
		{"an expression the lexer ended at an inner }}", `{{ config(meta={"a": {"b": 1}}) }} SELECT 1`, true,
			[]string{`{{ config(meta={"a": {"b": 1}}) }}`, "SELECT", "1"}, 0},
		// The lexer reads the literal whole already: its token stands, and
		// only its inner quotes are doubled.
		{"a literal holding Jinja quotes", "SELECT '{{ var('start') }}' AS s", false,
			[]string{"SELECT", "'{{ var('start') }}'", "AS", "s"}, 1},
	}
	for _, c := range cases {
		toks, _ := sqltext.Lex(c.src)
		code := sqltext.Code(toks)
		out, edits, lent := jinjaTokens(c.src, code)
		if len(edits) != c.edits {
			t.Errorf("%s: %d edits, want %d", c.name, len(edits), c.edits)
		}
		if lent != c.lent {
			t.Errorf("%s: lent = %v, want %v", c.name, lent, c.lent)
		}
		if !lent && &out[0] != &code[0] {
			t.Errorf("%s: the code was copied though nothing was corrected", c.name)
		}
		var got []string
		for _, tok := range out {
			got = append(got, tok.Text(c.src))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

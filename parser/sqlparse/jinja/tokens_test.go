package jinja

import (
	"slices"
	"strings"
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

func TestKeptCodeSharesARunAndCopiesAroundAGap(t *testing.T) {
	src := "{{ config(materialized='table') }} SELECT a FROM t {% if x %} WHERE b {% endif %}"
	toks, _ := sqltext.Lex(src)
	code := sqltext.Code(toks)
	texts := func(ts []sqltext.Token) []string {
		var out []string
		for _, tok := range ts {
			out = append(out, tok.Text(src))
		}
		return out
	}
	cases := []struct {
		name string
		drop func(string) bool
		want []string
		lent bool
	}{
		{"nothing left out", func(string) bool { return false }, texts(code), false},
		{"the leading config() call", func(s string) bool { return strings.HasPrefix(s, "{{ config") }, texts(code[1:]), false},
		{"leading and trailing tokens", func(s string) bool { return strings.HasPrefix(s, "{{ config") || s == "{% endif %}" }, texts(code[1 : len(code)-1]), false},
		{"a token between kept ones", func(s string) bool { return s == "FROM" }, []string{"{{ config(materialized='table') }}", "SELECT", "a", "t", "{% if x %}", "WHERE", "b", "{% endif %}"}, true},
		{"everything", func(string) bool { return true }, nil, false},
	}
	for _, c := range cases {
		kept, lent := keptCode(code, func(tok sqltext.Token) bool { return c.drop(tok.Text(src)) })
		if got := texts(kept); !slices.Equal(got, c.want) || lent != c.lent {
			t.Errorf("%s: kept %q (lent %v), want %q (lent %v)", c.name, got, lent, c.want, c.lent)
		}
		if !lent && len(kept) > 0 && &kept[0] != &code[slices.Index(code, kept[0])] {
			t.Errorf("%s: the run was copied", c.name)
		}
		if lent {
			sqltext.TokenBuffers.Put(kept)
		}
	}
}

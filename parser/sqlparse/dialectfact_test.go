package sqlparse

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// TestFileDialectIsGuess checks that a file's dialect, taken from its
// parse where the parse lexed the file as written, is what dialect.Guess
// reads from the text.
func TestFileDialectIsGuess(t *testing.T) {
	macros := map[string]jinja.Macro{}
	jinja.ReadMacros("{% macro pick(t) %} SELECT * FROM {{ t }} {% endmacro %}", macros)
	cases := map[string]string{
		"a dbt model":                            "{{ config(materialized='table') }}\nSELECT * FROM {{ ref('a') }}",
		"BigQuery":                               "SELECT * FROM `proj.ds.t` WHERE x[SAFE_OFFSET(0)] = 1",
		"Jinja only in a string literal":         "SELECT '{{ not_jinja }}' FROM `p.d.t`",
		"Jinja only in a comment":                "-- {{ x }}\nSELECT IFF(a, 1, 2) FROM t",
		"a project macro read as SQL":            "{{ pick('t') }}",
		"a project macro in a string literal":    "SELECT '{{ pick(1) }}' AS s FROM t QUALIFY x = 1",
		"a file past the first MiB, cut by size": "{{ config(materialized='table') }}\n" + strings.Repeat("SELECT 1;\n", 120_000),
	}
	for name, src := range cases {
		f := Parse(src, Options{ModelName: "m", Macros: macros})
		if got, want := f.Dialect(src), dialect.Guess(src); got != want {
			t.Errorf("%s: Dialect = %s, dialect.Guess = %s", name, got, want)
		}
	}
}

package jinja

import (
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// expanded reads a model as Parse does: its project macros expanded, then
// rendered, one text per reading.
func expanded(t *testing.T, src string, opts Options) map[string]string {
	t.Helper()
	text, _, _ := Expand(src, opts)
	got, _, problems := render(t, text, opts)
	if len(problems) > 0 {
		t.Errorf("problems reading the expansion %q: %v", text, problems)
	}
	return got
}

func macros(t *testing.T, src string) map[string]Macro {
	t.Helper()
	m := map[string]Macro{}
	ReadMacros(src, m)
	return m
}

// A model whose body is a project macro is read with the macro's SQL, the
// call's arguments bound, one reading per branch of the macro's
// is_incremental() test when the model's re-run safety rests on it; else
// as its full refresh alone.
func TestExpandIncrementalMacro(t *testing.T) {
	ms := macros(t, `{% macro load_events(src, key='event_id') %}
select e.* from {{ src }} as e
{% if is_incremental() %}
where e.{{ key }} not in (select {{ key }} from {{ this }})
{% endif %}
{% endmacro %}`)
	model := "{{ config(materialized='incremental') }}\n{{ load_events(ref('raw_events')) }}"
	got := expanded(t, model, Options{ModelName: "fct_events", Macros: ms, AppendsUnlessFiltered: true})
	want := map[string]string{
		"incremental": "select e.* from raw_events as e where e.event_id not in (select event_id from fct_events)",
		"full":        "select e.* from raw_events as e",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s reading:\n got %q\nwant %q", name, got[name], w)
		}
	}
	keyed := expanded(t, model, Options{ModelName: "fct_events", Macros: ms})
	if len(keyed) != 1 || keyed[""] != want["full"] {
		t.Errorf("a model whose safety does not rest on the filter: readings %q, want the full refresh alone", keyed)
	}
}

// A loop over a literal list is unrolled, loop.last deciding the commas:
// an import-CTE macro writes one WITH query per pair.
func TestExpandLoopOverArguments(t *testing.T) {
	ms := macros(t, `{% macro simple_cte(tuple_list) %}
WITH{% for cte_ref in tuple_list %} {{cte_ref[0]}} AS (
    SELECT * FROM {{ ref(cte_ref[1]) }}
)
    {%- if not loop.last -%}
    ,
    {%- endif -%}
{%- endfor -%}
{%- endmacro %}`)
	got := expanded(t, "{{ simple_cte([('accounts', 'dim_account'), ('hist', 'account_scd')]) }}\nselect * from accounts join hist on accounts.id = hist.id",
		Options{Macros: ms})
	want := "WITH accounts AS ( SELECT * FROM dim_account ), hist AS ( SELECT * FROM account_scd ) select * from accounts join hist on accounts.id = hist.id"
	if got[""] != want {
		t.Errorf("got  %q\nwant %q", got[""], want)
	}
}

// Subscripts are what the loop above needs; the evaluator reads them.
func TestEvalSubscript(t *testing.T) {
	env := Env{Names: map[string]Value{"pair": Eval("('a', 'b')", Env{})}}
	if v := Eval("pair[1]", env); v.Kind != String || v.Text != "b" {
		t.Errorf("pair[1] = %+v, want the string b", v)
	}
	if v := Eval("pair[2]", env); v.Known() {
		t.Errorf("pair[2] is out of range, read %+v", v)
	}
}

// A macro that returns a value writes that value; var() reads the
// project's vars, and env_var() its default.
func TestExpandReturnAndVars(t *testing.T) {
	ms := macros(t, `{% macro incremental_predicate(column) -%}
{{column}} >= date_trunc('{{var("unit")}}', now() - interval '{{var('lookback')}}' {{var('unit')}})
{%- endmacro -%}
{% macro cutoff() %}{{ return(var('cutoff_date', '2024-01-01')) }}{% endmacro %}`)
	vars := map[string]Value{"unit": Eval(`env_var('UNIT', 'day')`, Env{}), "lookback": {Kind: String, Text: "3"}}
	got := expanded(t, "select * from t where {{ incremental_predicate('t.block_time') }} and d > {{ cutoff() }}",
		Options{Macros: ms, Vars: vars})
	want := "select * from t where t.block_time >= date_trunc('day', now() - interval '3' day) and d > 2024-01-01"
	if got[""] != want {
		t.Errorf("got  %q\nwant %q", got[""], want)
	}
}

// A macro whose SQL depends on a query it runs is not expanded: the model
// is read with a placeholder, and the expansion says why.
func TestExpandDataDependent(t *testing.T) {
	ms := macros(t, `{% macro union_feeds() %}
{% set feeds = run_query('select name from feeds') %}
{% for f in feeds %}select * from {{ f }}{% if is_incremental() %} where ts > (select max(ts) from {{ this }}){% endif %}{% endfor %}
{% endmacro %}`)
	src := "{{ union_feeds() }}"
	opts := Options{ModelName: "m", Macros: ms}
	text, m, exp := Expand(src, opts)
	if text != src || m != nil {
		t.Errorf("expanded to %q", text)
	}
	toks, code := lexed(t, src)
	if r := Render(src, toks, code, opts); r.IncrementalMacro != "union_feeds" {
		t.Errorf("IncrementalMacro = %q, want union_feeds: its filter could not be read", r.IncrementalMacro)
	}
	if why := exp.Unread["union_feeds"]; !strings.Contains(why, "query it runs") {
		t.Errorf("Unread = %v, want union_feeds with the reason", exp.Unread)
	}
	if len(exp.Expanded) != 0 {
		t.Errorf("Expanded = %v, want none", exp.Expanded)
	}
}

// Whitespace control strips the blanks beside a tag, and a comment is no
// text.
func TestExpandWhitespaceControl(t *testing.T) {
	ms := macros(t, "{% macro cols(names) -%}\n  {%- for n in names %}\n  {{ n }}{% if not loop.last %},{% endif %} {# one per name #}\n  {%- endfor %}\n{%- endmacro %}")
	got := expanded(t, "select {{ cols(['a', 'b']) }} from t", Options{Macros: ms})
	if want := "select a, b from t"; got[""] != want {
		t.Errorf("got %q, want %q", got[""], want)
	}
}

func lexed(t *testing.T, src string) (toks, code []sqltext.Token) {
	t.Helper()
	toks, err := sqltext.Lex(src)
	if err != nil {
		t.Fatalf("Lex: %v", err)
	}
	return toks, sqltext.Code(toks)
}

// The incremental filter of a model: its is_incremental() branches and
// those of the macros it calls, a value from the run's clock rendered as
// the current time, a var() marked, {{ this }} named.
func TestIncrementalFilter(t *testing.T) {
	ms := macros(t, `{% macro incremental_predicate(col) -%}{{ col }} >= now() - interval '7' day{%- endmacro %}
{% macro trades(src) %}select * from {{ src }} {% if is_incremental() %}where {{ incremental_predicate('block_time') }}{% endif %}{% endmacro %}`)
	cases := []struct {
		name, src, want string
		found           bool
	}{
		{"clock from a set", "{% set since = (run_started_at - modules.datetime.timedelta(days=31)).strftime('%Y-%m-%d') %}\nselect * from t {% if is_incremental() %}where ts > '{{ since }}'{% else %}where ts > '2020-01-01'{% endif %}",
			"where ts > 'current_timestamp'", true},
		{"watermark", "select * from t {% if is_incremental() %}where ts > (select max(ts) from {{ this }}){% endif %}",
			"where ts > (select max(ts) from __this__)", true},
		{"negated test", "select * from t {% if not is_incremental() %}where ts > '2020-01-01'{% else %}where ts > {{ var('since') }}{% endif %}",
			"where ts > __var__", true},
		{"in a macro", "{{ trades(source('raw', 'trades')) }}", "where block_time >= now() - interval '7' day", true},
		{"no filter", "select * from t", "", false},
	}
	for _, c := range cases {
		f := IncrementalFilter(c.src, Options{Macros: ms})
		if strings.TrimSpace(f.Text) != c.want || f.Found != c.found {
			t.Errorf("%s: filter %q (found %v), want %q (%v)", c.name, f.Text, f.Found, c.want, c.found)
		}
		if c.found && f.At < 0 {
			t.Errorf("%s: no position", c.name)
		}
	}
}

// TestIncrementalFilterSetBlock keeps what a {% set %} block outside the
// is_incremental() test holds when the test writes it out.
func TestIncrementalFilterSetBlock(t *testing.T) {
	src := "{% set recent %}where ts >= (select max(ts) from {{ this }}){% endset %}\nselect * from {{ source('a', 'b') }}\n{% if is_incremental() %}{{ recent }}{% endif %}"
	f := IncrementalFilter(src, Options{})
	if !strings.Contains(f.Text, ThisText) {
		t.Errorf("filter %q lost the block set's {{ this }}", f.Text)
	}
}

// TestIncrementalFilterAt points at the branch an incremental run takes:
// past a first-build block that precedes it, or the else of a negated
// test.
func TestIncrementalFilterAt(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"select 1\n{% if not is_incremental() %}\nwhere a\n{% endif %}\n{% if is_incremental() %}\nwhere b\n{% endif %}", "where b"},
		{"select 1\n{% if not is_incremental() %}\nwhere a\n{% else %}\nwhere c\n{% endif %}", "where c"},
		{"select 1\n{% if var('dev', false) %}\nwhere a\n{% elif is_incremental() %}\nwhere d\n{% endif %}", "where d"},
		// A comment about the filter is not the filter.
		{"select 1 {% if is_incremental() %}\n\n  -- only on incremental runs\n  /* see below */ and e > 1\n{% endif %}", "and e > 1"},
	} {
		f := IncrementalFilter(tt.src, Options{})
		if f.At < 0 || !strings.HasPrefix(tt.src[f.At:], tt.want) {
			t.Errorf("At = %d in %q, want the line %q", f.At, tt.src, tt.want)
		}
	}
}

// A macro that writes all of a model's SQL is read whatever its size:
// everything the model does rests on it. The same call beside SQL the
// model writes itself stays a placeholder past smallExpansion.
func TestExpandWholeBodyMacro(t *testing.T) {
	columns := strings.Repeat("a_long_column_name_for_the_test, ", 100)
	ms := macros(t, "{% macro wide(src) %}select "+columns+"id from {{ src }}{% endmacro %}")
	opts := Options{ModelName: "m", Macros: ms}
	for _, tt := range []struct {
		model string
		read  bool
	}{
		{"{{ config(materialized='table') }}\n-- the whole model\n{{ wide(ref('raw')) }}\n{# done #}\n", true},
		{"with w as ({{ wide(ref('raw')) }}) select id from w", false},
	} {
		text, _, exp := Expand(tt.model, opts)
		if got := slices.Equal(exp.Expanded, []string{"wide"}) && strings.Contains(text, columns+"id from raw"); got != tt.read {
			t.Errorf("%q: expanded %v, want %v:\n%s", tt.model, exp.Expanded, tt.read, text)
		}
	}
}

// Whitespace control may join a kept block tag to a line comment in the
// expanded text; the tag still closes its block, as in dbt, where Jinja
// is rendered before SQL is read.
func TestExpandTagAfterLineComment(t *testing.T) {
	ms := macros(t, `{% macro load(src) %}
select a from {{ src }}
{% if is_incremental() %}
where a > (select max(a) from {{ this }}) -- only new rows
{%- endif %}
{% endmacro %}`)
	got := expanded(t, "{{ config(materialized='incremental') }}\n{{ load(ref('raw')) }}\n", Options{ModelName: "m", Macros: ms, AppendsUnlessFiltered: true})
	if want := "select a from raw where a > (select max(a) from m) -- only new rows"; got["incremental"] != want {
		t.Errorf("incremental reading %q, want %q", got["incremental"], want)
	}
}

// What may stand around a model's Jinja for its SQL to be all the
// macros': blanks, comments of every kind (one that ends the file too)
// and semicolons.
func TestBlankSQL(t *testing.T) {
	for s, want := range map[string]bool{
		"":                         true,
		" \n\t;\n":                 true,
		"-- a note\n/* more */ ;":  true,
		"{# dbt drops it #}\n":     true,
		"// Snowflake's comment":   true,
		"-- the last line, no end": true,
		"/* never closed":          false,
		"select 1":                 false,
		"-- note\nwith x as (":     false,
	} {
		if got := blankSQL(s); got != want {
			t.Errorf("blankSQL(%q) = %v, want %v", s, got, want)
		}
	}
}

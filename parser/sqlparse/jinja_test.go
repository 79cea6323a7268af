package sqlparse

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// warehouseNames resolves refs and sources the way a manifest would, so the
// tests see that every relation name goes through Options.Resolve.
var warehouseNames = Options{
	ModelName: "fct_orders",
	Resolve: func(kind string, args []string) string {
		if kind == "source" {
			return "raw_" + args[0] + "." + args[1]
		}
		return "analytics." + args[len(args)-1]
	},
}

// readsOf describes what each statement of f reads, one entry per
// statement: its variant, then the relations.
func readsOf(f *File) []string {
	var out []string
	for _, st := range f.Statements {
		var names []string
		for _, r := range st.Reads() {
			names = append(names, r.Name())
		}
		out = append(out, st.Variant+"["+strings.Join(names, " ")+"]")
	}
	return out
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestJinjaConstructs(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		reads []string     // per statement: variant[relations read]
		text  string       // a part of every statement's rewritten text, spaces collapsed
		model *jinja.Model // the config() read, without its offset
	}{
		// Macros that expand to whole fragments.
		{name: "a project macro writes the final query after a WITH list",
			src:   "with source as (select * from {{ ref('raw_orders') }}), final as (select id from source), extra as (select 1 as x)\n{{ dbt_audit(cte_ref=\"final\", created_by=\"@a\", updated_date=\"2021-01-01\") }}\n",
			reads: []string{"[analytics.raw_orders]"}, text: ") SELECT * FROM final"},
		{name: "a macro handed a column by name is a value of it",
			src:   "select a.id from {{ ref('a') }} a where a.ts < {{ coalesce_to_infinity('a.valid_to') }}",
			reads: []string{"[analytics.a]"}, text: "where a.ts < COALESCE(a.valid_to)"},
		{name: "a macro after a WITH list reads the last query when it names none",
			src:   "with a as (select 1 as x), b as (select x from a)\n{{ audit_columns() }}",
			reads: []string{"[]"}, text: ") SELECT * FROM b"},
		{name: "star in a select list",
			src:   "select {{ dbt_utils.star(ref('stg_orders')) }}, amount from {{ ref('stg_orders') }}",
			reads: []string{"[analytics.stg_orders]"}, text: "select * , amount from analytics.stg_orders"},
		{name: "star with from and except",
			src:   "select o.id,\n  {{ dbt_utils.star(from=ref('stg_orders'), except=['_loaded_at', 'raw'], relation_alias='o') }}\nfrom {{ ref('stg_orders') }} o",
			reads: []string{"[analytics.stg_orders]"}, text: "select o.id, * from analytics.stg_orders o"},
		{name: "union_relations as a CTE body",
			src:   "with u as (\n  {{ dbt_utils.union_relations(relations=[ref('a'), source('shop', 'b')], exclude=['x']) }}\n)\nselect * from u",
			reads: []string{"[analytics.a raw_shop.b]"}, text: "with u as ( SELECT * FROM analytics.a UNION ALL SELECT * FROM raw_shop.b )"},
		{name: "union_relations as the whole model",
			src:   "{{ config(materialized='view') }}\n{{ dbt_utils.union_relations(relations=[ref('a'), ref('b')]) }}",
			reads: []string{"[analytics.a analytics.b]"}, text: "SELECT * FROM analytics.a UNION ALL SELECT * FROM analytics.b",
			model: &jinja.Model{Materialized: "view"}},
		{name: "generate_surrogate_key",
			src:   "select {{ dbt_utils.generate_surrogate_key(['order_id', 'line']) }} as k, {{ dbt_utils.generate_surrogate_key(['a']) }} from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select __jinja__ as k, __jinja__ from"},
		{name: "date_spine as a CTE body",
			src:   "with m as (\n  {{ dbt_utils.date_spine(datepart=\"month\", start_date=\"cast('2020-01-01' as date)\", end_date=\"current_date\") }}\n) select date_month from m",
			reads: []string{"[]"}, text: "SELECT __jinja__ AS date_month"},
		{name: "date_spine as a subquery in FROM",
			src:   "select d.date_day from ({{ dbt.date_spine('day', \"'2020-01-01'\", 'current_date') }}) d join {{ ref('fx') }} r on r.d = d.date_day",
			reads: []string{"[analytics.fx]"}, text: "from ( SELECT __jinja__ AS date_day ) d"},
		{name: "group_by",
			src:   "select a, b, count(*) from {{ ref('x') }} {{ dbt_utils.group_by(n=2) }}",
			reads: []string{"[analytics.x]"}, text: "GROUP BY 1, 2"},
		{name: "current_timestamp macro",
			src:   "select {{ dbt.current_timestamp() }} as loaded_at, {{ dbt_date.today() }} as d from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select current_timestamp as loaded_at, current_date as d"},

		// Project macros, shaped for where they stand.
		{name: "macro writing the CTE list at the start",
			src:   "{{ import_ctes(['orders', 'customers']) }},\nfinal as (select * from orders)\nselect * from final",
			reads: []string{"[orders]"}, text: "WITH __jinja_cte__ AS (SELECT 1) , final as"},
		{name: "macro writing CTEs after WITH",
			src:   "with {{ import_ctes(ref('orders')) }}, final as (select 1 as a) select * from final",
			reads: []string{"[analytics.orders]"}, text: "with __jinja_cte__ AS (SELECT * FROM analytics.orders) , final"},
		{name: "macro writing CTEs at the end of the list",
			src:   "with a as (select 1 as x),\n{{ more_ctes() }}\nselect * from a",
			reads: []string{"[]"}, text: "with a as (select 1 as x), __jinja_cte__ AS (SELECT 1) select"},
		{name: "macro writing a FROM item from a ref",
			src:   "select a from {{ dedupe(ref('events'), 'id') }} e join {{ ref('users') }} u on u.id = e.user_id",
			reads: []string{"[analytics.events analytics.users]"}, text: "from (SELECT * FROM analytics.events) e join analytics.users u"},
		{name: "macro writing a FROM item, nothing known",
			src:   "select a from {{ var('events_table') }} as e, {{ other_relation() }} o",
			reads: []string{"[__jinja__ __jinja__]"}, text: "from __jinja__ as e, __jinja__ o"},
		{name: "macro writing the whole statement",
			src:   "{{ config(materialized='table') }}\n{{ generate_model() }}",
			reads: []string{"[]"}, text: "SELECT 1", model: &jinja.Model{Materialized: "table"}},
		{name: "macro writing a preamble",
			src:   "{{ log('building', info=True) }}\n{{ set_query_tag() }}\nselect * from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select * from analytics.x"},
		{name: "macro writing the select list head",
			src:   "{{ select_audit_columns() }} from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "SELECT * from analytics.x"},
		{name: "macro adding a filter",
			src:   "select a from {{ ref('x') }} where 1 = 1 {{ extra_filters() }} order by a",
			reads: []string{"[analytics.x]"}, text: "where 1 = 1 order by a"},
		{name: "macro as a select item",
			src:   "select id, {{ pivot_columns('status') }}, {{ more_columns() }} from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select id, * , * from"},
		{name: "macro as an expression",
			src:   "select cast({{ x }} as {{ dbt.type_string() }}) from t where d in ({{ var('days') }}) and n > {{ var('n') }}",
			reads: []string{"[t]"}, text: "cast( __jinja__ as __jinja__ ) from t where d in ( __jinja__ ) and n > __jinja__"},
		{name: "macro in an interval",
			src:   "select * from t where d >= current_date - interval {{ var('lookback_days') }} day",
			reads: []string{"[t]"}, text: "interval '__jinja__' day"},
		{name: "macro glued into a name",
			src:   "select {{ col }}_total, {{ this }}_tmp.a from stg_{{ var('src') }}_orders",
			reads: []string{"[stg___jinja___orders]"}, text: "select __jinja___total, fct_orders_tmp.a from stg___jinja___orders"},

		// Block tags.
		{name: "set, single and block form",
			src:   "{% set cols = ['a', 'b'] %}\n{% set amount -%}\n  coalesce(x, 0)\n{%- endset %}\nselect {{ amount }} as amount from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select __jinja__ as amount from"},
		{name: "for loop in a select list",
			src:   "select {% for c in cols %}{{ c }}{% if not loop.last %},{% endif %}{% endfor %} from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select * from"},
		{name: "for loop writing columns",
			src:   "select id,\n{% for m in ['card', 'cash'] %}\n  sum(case when method = '{{ m }}' then amount end) as {{ m }}_amount{% if not loop.last %},{% endif %}\n{% endfor %}\nfrom {{ ref('x') }} group by 1",
			reads: []string{"[analytics.x]"}, text: "as __jinja___amount from"},
		{name: "for loop of unions",
			src:   "{% for r in regions %}\nselect * from {{ source('shop_' ~ r, 'orders') }}\n{% if not loop.last %}union all{% endif %}\n{% endfor %}",
			reads: []string{"[__jinja__]"}, text: "select * from __jinja__"},
		{name: "for loop with a leading comma",
			src:   "select id\n{%- for m in months %}\n  , {{ m }} as m_{{ m }}\n{%- endfor %}\nfrom t",
			reads: []string{"[t]"}, text: "select id , __jinja__ as m___jinja__ from t"},
		{name: "for loop writing CTEs",
			src:   "with {% for t in ['a', 'b'] %}{{ t }} as (select * from {{ ref(t) }}){% if not loop.last %},{% endif %}{% endfor %}\nselect * from a",
			reads: []string{"[__jinja__ a]"}, text: "with __jinja__ as (select * from __jinja__ ) select"},
		{name: "for loop else",
			src:   "select a from t where a in ({% for v in vals %}'{{ v }}'{% else %}null, {% endfor %})",
			reads: []string{"[t]"}, text: "where a in ( '{{ v }}' )"},
		{name: "call statement block",
			src:   "{% call statement('max_d', fetch_result=True) %}\nselect max(d) from {{ this }}\n{% endcall %}\n{%- set max_d = load_result('max_d')['data'][0][0] -%}\nselect * from {{ ref('x') }} where d > '{{ max_d }}'",
			reads: []string{"[analytics.x]"}, text: "select * from analytics.x where d > '{{ max_d }}'"},
		{name: "call block that is the statement",
			src:   "{% call run_in_transaction() %}\ndelete from {{ this }} where d < current_date\n{% endcall %}",
			reads: []string{"[]"}, text: "delete from fct_orders where"},
		{name: "whitespace control",
			src:   "{{- config(materialized='table') -}}\n{%- set x = 1 -%}\nselect a\nfrom {{- ref('x') -}}\n{%- if target.name == 'dev' %} where a > {{- var('n', 0) -}} {% endif -%}",
			reads: []string{"[analytics.x]"}, text: "from analytics.x where a > __jinja__",
			model: &jinja.Model{Materialized: "table"}},
		{name: "whitespace control plus",
			src:   "select a from {{ ref('x') }} {%+ if true +%} where a = 1 {%+ endif %}",
			reads: []string{"[analytics.x]"}, text: "where a = 1"},
		{name: "snapshot block",
			src:   "{% snapshot customers_snapshot %}\n{{ config(target_schema='snapshots', unique_key='id', strategy='timestamp', updated_at='updated_at') }}\nselect * from {{ source('shop', 'customers') }}\n{% endsnapshot %}",
			reads: []string{"[raw_shop.customers]"}, model: &jinja.Model{Materialized: "snapshot", UniqueKey: []string{"id"}}},
		{name: "materialization block",
			src:   "{% materialization my_table, adapter='snowflake' %}\n{% call statement('main') %}create table {{ this }} as {{ sql }}{% endcall %}\n{{ return({'relations': [this]}) }}\n{% endmaterialization %}",
			reads: nil},
		{name: "macro block",
			src:   "{% macro cents(col) %}({{ col }} / 100.0){% endmacro %}\nselect {{ cents('amount') }} as amount from t",
			reads: []string{"[t]"}, text: "select __jinja__ as amount from t"},

		// config().
		{name: "config in dict form",
			src:   "{{ config({\"materialized\": \"incremental\", \"unique_key\": [\"a\", \"b\"], \"partition_by\": {\"field\": \"d\", \"unique_key\": \"x\"}}) }}\nselect 1 as a",
			reads: []string{"[]"}, model: &jinja.Model{Materialized: "incremental", UniqueKey: []string{"a", "b"}}},
		{name: "config keyword arguments over lines",
			src:   "{{\n  config(\n    materialized = 'incremental',\n    incremental_strategy = \"delete+insert\",\n    unique_key = ('a', 'b'),\n    cluster_by = ['d'],\n  )\n}}\nselect 1 as a",
			reads: []string{"[]"}, model: &jinja.Model{Materialized: "incremental", IncrementalStrategy: "delete+insert", UniqueKey: []string{"a", "b"}}},
		{name: "config calls merge",
			src:   "{{ config(materialized='table') }}\n{{ config(materialized='incremental', unique_key='id', incremental_strategy=var('strategy')) }}\nselect 1 as id",
			reads: []string{"[]"}, model: &jinja.Model{Materialized: "incremental", UniqueKey: []string{"id"}}},

		// Context variables and adapter calls.
		{name: "var inside and outside strings",
			src:   "select * from {{ ref('x') }} where d >= '{{ var('start', '2020-01-01') }}' and d < '{{ var(\"end\") }}' and n > {{ var('n') }}",
			reads: []string{"[analytics.x]"}, text: "where d >= '{{ var(''start'', ''2020-01-01'') }}' and d < '{{ var(\"end\") }}' and n > __jinja__"},
		{name: "a filter with quotes inside a literal",
			src:   "select '{{ ind.name | replace(\"'\", \"''\") }}' as name, \"{{ ind.id }}\" as id from {{ ref('x') }}",
			reads: []string{"[analytics.x]"}, text: "select '{{ ind.name | replace(\"''\", \"''''\") }}' as name"},
		{name: "this, target and adapter.quote",
			src:   "select {{ adapter.quote('order') }}, t.{{ adapter.quote(\"from\") }}, '{{ target.schema }}' as s from {{ target.schema }}.orders t where d > (select max(d) from {{ this }})",
			reads: []string{"[__jinja__.orders fct_orders]"}, text: `select "order" , t. "from" , '{{ target.schema }}' as s`},

		{name: "Jinja written against a keyword",
			src:   "select a from {{ ref('x') }} x join {{ ref('u') }} u ON{{ get_date_id('x') }} = u.d where b in (select c from{{ source('s','t') }}) and{{ flag() }}",
			reads: []string{"[analytics.x analytics.u raw_s.t]"}, text: "u ON __jinja__ = u.d where b in (select c from raw_s.t ) and __jinja__"},
		{name: "a macro that writes the list of an IN",
			src:   "select a from {{ ref('x') }} where b in {{ internal_ids() }} and c not in {{ ids_of(ref('y')) }}",
			reads: []string{"[analytics.x analytics.y]"}, text: "where b in (__jinja__) and c not in (SELECT * FROM analytics.y)"},
		{name: "Jinja written against a name's part stays one name",
			src:   "select a from stg_{{ var('source') }}_orders",
			reads: []string{"[stg___jinja___orders]"}, text: "from stg___jinja___orders"},

		// is_incremental() readings.
		{name: "is_incremental",
			src:   "select * from {{ ref('x') }}\n{% if is_incremental() %}where d > (select max(d) from {{ this }}){% endif %}",
			reads: []string{"incremental[analytics.x fct_orders]", "full[analytics.x]"}},
		{name: "not is_incremental with else",
			src:   "select * from {{ ref('x') }}\n{%- if not is_incremental() -%}\nwhere d >= '2020-01-01'\n{%- else -%}\nwhere d > (select max(d) from {{ this }})\n{%- endif -%}",
			reads: []string{"incremental[analytics.x fct_orders]", "full[analytics.x]"}},
		{name: "is_incremental inside a CTE",
			src:   "with src as (\n  select * from {{ source('shop', 'orders') }}\n  {% if is_incremental() %}\n  where id not in (select id from {{ this }})\n  {% endif %}\n)\nselect * from src",
			reads: []string{"incremental[raw_shop.orders fct_orders]", "full[raw_shop.orders]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.src, warehouseNames)
			if len(f.Problems) > 0 {
				t.Fatalf("problems: %v", f.Problems)
			}
			for _, st := range f.Statements {
				if st.Problem != nil || st.Node == nil {
					t.Fatalf("does not parse: %+v\n%s", st.Problem, st.Text)
				}
				if !strings.Contains(collapse(st.Text), c.text) {
					t.Errorf("text %q does not contain %q", collapse(st.Text), c.text)
				}
			}
			if got := readsOf(f); strings.Join(got, "; ") != strings.Join(c.reads, "; ") {
				t.Errorf("reads %q, want %q", got, c.reads)
			}
			switch {
			case c.model == nil && f.Model != nil:
				t.Errorf("model %+v, want none", f.Model)
			case c.model != nil && f.Model == nil:
				t.Errorf("no model, want %+v", c.model)
			case c.model != nil:
				got := *f.Model
				got.Offset = 0
				if got.Materialized != c.model.Materialized || got.IncrementalStrategy != c.model.IncrementalStrategy ||
					strings.Join(got.UniqueKey, ",") != strings.Join(c.model.UniqueKey, ",") {
					t.Errorf("model %+v, want %+v", got, *c.model)
				}
			}
		})
	}
}

// TestJinjaSelectListMacros checks what rules read off a select list that
// a macro writes: a star, which claims no column list a rule could find
// the partition column missing from.
func TestJinjaSelectListMacros(t *testing.T) {
	src := "select order_id, {{ dbt_utils.star(ref('stg_orders'), except=['order_id']) }} from {{ ref('stg_orders') }}"
	st := Parse(src, Options{}).Statements[0]
	if got := strings.Join(SelectColumns(st.Select()), ","); got != "order_id,*" {
		t.Errorf("columns %q, want order_id,*", got)
	}
}

// TestJinjaPositions checks that positions after, inside and instead of
// Jinja still point at what the user wrote.
func TestJinjaPositions(t *testing.T) {
	t.Run("errors after Jinja", func(t *testing.T) {
		// near is the text the error must point at: its last occurrence.
		cases := []struct{ src, near string }{
			{"select {{ dbt_utils.star(ref('x')) }}\nfrom {{ ref('x') }} where where", "where"},
			{"with u as (\n  {{ dbt_utils.union_relations(relations=[ref('a'), ref('b')]) }}\n)\nselect * from u where and", "and"},
			{"select * from {{ ref('t') }} where d >= '{{ var('start') }}' and 'ü' = '{{ var('x', 'ä') }}' and and", "and"},
			{"{% for c in cols %}\nselect {{ c }}{% if not loop.last %},{% endif %}\n{% endfor %} from t t t", "t"},
			{"{%- call statement('x', fetch_result=True) -%}\nselect 1\n{%- endcall -%}\n{{ import_ctes() }},\nfinal as (select 1) select select", "select"},
			{"{{ config({'materialized': 'incremental', 'partition_by': {'field': 'd'}}) }}\nselect ärger from t\n{% if is_incremental() %}where ärger > {{ var('x') }} or or{% endif %}", "or"},
			{"{{ log('x') }}{{ set_tag() }}\n\tselect {{ dbt.current_timestamp() }} from {{ dedupe(ref('x')) }} x y", "y"},
		}
		for _, c := range cases {
			var problems []string
			for _, st := range Parse(c.src, Options{}).Statements {
				if st.Problem != nil {
					problems = append(problems, facttest.At(c.src, st.Problem.Offset)+" "+st.Problem.Msg)
				}
			}
			want := facttest.At(c.src, strings.LastIndex(c.src, c.near))
			if len(problems) != 1 || !strings.HasPrefix(problems[0], want+" ") {
				t.Errorf("%q: problems %q, want one at %s", c.src, problems, want)
			}
		}
	})
	t.Run("relations and statements", func(t *testing.T) {
		src := "{{ config(materialized='table') }}\n\n  {{ dbt_utils.union_relations(relations=[ref('a'), ref('b')]) }}"
		st := Parse(src, Options{}).Statements[0]
		if facttest.At(src, st.Start) != "3:3" {
			t.Errorf("the statement starts at %s, want the macro at 3:3", facttest.At(src, st.Start))
		}
		if got := names(st.Reads(), src); got != "a@3:3 b@3:3" {
			t.Errorf("reads %q, want both at the macro", got)
		}
		src = "select a\nfrom {{ ref('stg_orders') }} as o\njoin {{ dedupe(source('crm', 'people')) }} as p on p.id = o.pid"
		st = Parse(src, Options{}).Statements[0]
		if got := names(st.Reads(), src); got != "stg_orders@2:6 crm.people@3:6" {
			t.Errorf("reads %q", got)
		}
	})
}

// TestJinjaCorpus parses every dbt model of the real-world corpus. At
// least 95% of the statements must parse; those that do not are listed
// with why.
func TestJinjaCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", "realworld", "dbt_*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dbt corpus: %v", err)
	}
	statements, parsed := 0, 0
	var failures []string
	sources := map[string]string{}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, name := string(b), filepath.Base(path)
		sources[name] = src
		f := Parse(src, warehouseNames)
		for _, p := range f.Problems {
			statements++
			failures = append(failures, name+":"+facttest.At(src, p.Offset)+": "+p.Msg)
		}
		for _, st := range f.Statements {
			statements++
			if st.Problem == nil {
				parsed++
				continue
			}
			failures = append(failures, name+":"+facttest.At(src, st.Problem.Offset)+" ("+st.Variant+"): "+st.Problem.Msg)
		}
	}
	share := 100 * float64(parsed) / float64(statements)
	t.Logf("dbt corpus: %d files, %d statements, %d parsed (%.1f%%)", len(files), statements, parsed, share)
	for _, f := range failures {
		t.Logf("not parsed: %s", f)
	}
	if statements < 45 {
		t.Errorf("the corpus has %d dbt statements, want at least 45", statements)
	}
	if share < 95 {
		t.Errorf("%.1f%% of the dbt statements parse, want at least 95%%", share)
	}
	// Every construct the Jinja reading handles stands in at least two
	// files, so the share measures each of them.
	constructs := map[string]*regexp.Regexp{
		"dbt_utils.star":              regexp.MustCompile(`dbt_utils\.star\(`),
		"dbt_utils.union_relations":   regexp.MustCompile(`dbt_utils\.union_relations\(`),
		"generate_surrogate_key":      regexp.MustCompile(`generate_surrogate_key\(`),
		"dbt_utils.date_spine":        regexp.MustCompile(`dbt_utils\.date_spine\(`),
		"macro writing CTEs":          regexp.MustCompile(`(?m)(^|with )\{\{ \w+\(.*\) \}\},`),
		"macro writing a FROM item":   regexp.MustCompile(`from \{\{ (var|\w+)\((ref|source|'\w+', source)\(`),
		"set, one line":               regexp.MustCompile(`\{%-? set \w+ = `),
		"set, block":                  regexp.MustCompile(`\{%-? set \w+ -?%\}`),
		"for loop":                    regexp.MustCompile(`\{%-? for `),
		"loop.last":                   regexp.MustCompile(`not loop\.last`),
		"call statement":              regexp.MustCompile(`\{%-? call statement\(`),
		"whitespace control":          regexp.MustCompile(`\{%-|-%\}|\{\{-|-\}\}`),
		"config dict":                 regexp.MustCompile(`config\(\{`),
		"snapshot":                    regexp.MustCompile(`\{% snapshot `),
		"materialization":             regexp.MustCompile(`\{%-? materialization `),
		"var in a string":             regexp.MustCompile(`'\{\{ var\(`),
		"var outside strings":         regexp.MustCompile(`[^'"]\{\{ var\(`),
		"this":                        regexp.MustCompile(`\{\{ this \}\}`),
		"target.schema":               regexp.MustCompile(`target\.schema`),
		"adapter.quote":               regexp.MustCompile(`adapter\.quote\(`),
		"is_incremental":              regexp.MustCompile(`if is_incremental\(\)`),
		"not is_incremental":          regexp.MustCompile(`if not is_incremental\(\)`),
		"is_incremental else":         regexp.MustCompile(`(?s)is_incremental\(\) %\}.*\{% else %\}`),
		"dbt_utils.group_by":          regexp.MustCompile(`dbt_utils\.group_by\(`),
		"dbt.current_timestamp":       regexp.MustCompile(`dbt\.current_timestamp\(`),
		"config with unique_key list": regexp.MustCompile(`unique_key['"]?\s*[=:]\s*\[`),
	}
	var names []string
	for name := range constructs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n := 0
		for _, src := range sources {
			if constructs[name].MatchString(src) {
				n++
			}
		}
		if n < 2 {
			t.Errorf("%s stands in %d corpus files, want at least 2", name, n)
		}
	}
}

// FuzzJinja checks that no template makes the Jinja reading panic or put
// a position outside the file.
func FuzzJinja(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", "realworld", "dbt_*.sql"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"select '{{ var('x') }}", "{{ config({'a': {'b': 1}) }}", "{% call statement() %}select 1;select 2",
		"{{ x }}, {{ y }} as (", "with {{ a }}", "select {{ star() }} from {{ u(ref('a')) }}.b", "'{% if x == 'a' %}'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, st := range Parse(src, Options{}).Statements {
			if st.Start < 0 || st.Start > len(src) || (st.Problem != nil && (st.Problem.Offset < 0 || st.Problem.Offset > len(src))) {
				t.Fatalf("position outside the file: start %d, problem %+v", st.Start, st.Problem)
			}
		}
	})
}

package jinja

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// render applies each variant's edits to src, as the SQL reader does
// before it parses.
func render(t *testing.T, src string, opts Options) (map[string]string, *Model, []sqltext.Problem) {
	t.Helper()
	toks, err := sqltext.Lex(src)
	if err != nil {
		t.Fatalf("Lex: %v", err)
	}
	var code []sqltext.Token
	for _, tk := range toks {
		if tk.IsCode() {
			code = append(code, tk)
		}
	}
	r := Render(src, toks, code, opts)
	variants, model, problems := r.Variants, r.Model, r.Problems
	out := map[string]string{}
	for _, v := range variants {
		text, _ := sqltext.Rewrite(src, 0, len(src), sqltext.SortEdits(slices.Clone(v.Edits)))
		out[v.Name] = strings.Join(strings.Fields(text), " ")
	}
	return out, model, problems
}

func TestRenderIncrementalModel(t *testing.T) {
	src := "{{ config(materialized='incremental', unique_key='order_id') }}\n" +
		"select * from {{ ref('orders') }}\n" +
		"{% if is_incremental() %}where loaded_at > (select max(loaded_at) from {{ this }}){% endif %}"
	resolve := func(kind string, args []string) string { return "analytics." + args[len(args)-1] }
	got, model, problems := render(t, src, Options{ModelName: "fct_orders", Resolve: resolve})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := map[string]string{
		"incremental": "select * from analytics.orders where loaded_at > (select max(loaded_at) from fct_orders )", // a removed tag leaves a blank
		"full":        "select * from analytics.orders",
	}
	for name, text := range want {
		if got[name] != text {
			t.Errorf("variant %q:\n got %q\nwant %q", name, got[name], text)
		}
	}
	if len(got) != len(want) {
		t.Errorf("variants %v, want incremental and full", got)
	}
	if model == nil || model.Materialized != "incremental" || !slices.Equal(model.UniqueKey, []string{"order_id"}) {
		t.Errorf("model %+v, want incremental on order_id", model)
	}
}

func TestRenderPlainModel(t *testing.T) {
	got, model, _ := render(t, "select id from {{ source('shop', 'customers') }}", Options{})
	// Without Resolve, source() reads as the readable name of its arguments.
	if want := "select id from shop.customers"; len(got) != 1 || got[""] != want {
		t.Errorf("a model without is_incremental() has one variant, %q; got %v", want, got)
	}
	if model != nil {
		t.Errorf("no config(): model %+v, want nil", model)
	}
}

// TestRenderIsInit keeps the branch bigquery-etl runs on schedule and for
// backfills: is_init() holds only when the table is first created.
func TestRenderIsInit(t *testing.T) {
	src := "select a from {% if is_init() %}p.d.stable{% else %}p.d.live{% endif %} where {% if not is_init() %}day = @d{% endif %}"
	got, _, _ := render(t, src, Options{})
	if want := "select a from p.d.live where day = @d"; strings.Join(strings.Fields(got[""]), " ") != want {
		t.Errorf("got %q, want %q", got[""], want)
	}
}

func TestRenderUnbalancedBlock(t *testing.T) {
	_, _, problems := render(t, "select 1 {% if x %} from t", Options{})
	if len(problems) == 0 {
		t.Error("an {% if %} without {% endif %} must be a problem")
	}
}

func TestContains(t *testing.T) {
	for src, want := range map[string]bool{"select 1": false, "select {{ x }}": true, "{% set a = 1 %} select 1": true, "{# note #} select 1": true, "select '{{'": false} {
		toks, _ := sqltext.Lex(src)
		if got := Contains(toks); got != want {
			t.Errorf("Contains(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestVarNames(t *testing.T) {
	src := `SELECT * FROM {{ ref('events') }}
WHERE day >= '{{ var("backfill_start") }}'
  AND day < '{{ var('backfill_end', '2999-01-01') }}'
{% if var('backfill_start', none) %}AND 1 = 1{% endif %}
-- var('not_jinja') in a comment outside Jinja is not a dbt var
`
	got := VarNames([]byte(src))
	if want := []string{"backfill_start", "backfill_end"}; !slices.Equal(got, want) {
		t.Errorf("VarNames = %q, want %q", got, want)
	}
}

// A generator's template hides the query's own tags from its first
// rendering in raw blocks; the query then reads them when it runs.
func TestRenderRawBlocksHoldTheOutputsTags(t *testing.T) {
	src := "{% raw %}\n{% if is_init() %}\n{% endraw %}\n" +
		"SELECT * FROM `{{ project_id }}.ds.t` WHERE\n" +
		"  {% raw %}{% if is_init() %}{% endraw %}d >= '2023-01-01'{% raw %}{% else %}{% endraw %}d = @submission_date{% raw %}{% endif %}{% endraw %}\n" +
		"{% raw %}\n{% else %}\n{% endraw %}\nSELECT 1\n{% raw %}\n{% endif %}\n{% endraw %}"
	got, _, problems := render(t, src, Options{})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	// is_init() is false for every backfill run: the else branches.
	if want := "SELECT 1"; len(got) != 1 || !slices.Contains(slices.Collect(maps.Values(got)), want) {
		t.Errorf("rendered %q, want %q", got, want)
	}
}

package dbtproject

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testfs"
	"github.com/bflint/bflint/parser/manifest"
)

// The config precedence is dbt's: folder config from dbt_project.yml,
// deeper folders winning, then properties files, then config() in the
// model, key by key.
func TestConfigPrecedence(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"dbt_project.yml": `name: shop
model-paths: ["transform"]
models:
  +materialized: view
  shop:
    sources:
      +materialized: table
      ga4:
        +materialized: incremental
        +unique_key: event_id
        ga4_sessions:
          +incremental_strategy: append
    disabled:
      +enabled: false
`,
		"transform/sources/ga4/ga4_events.sql":   "select * from raw.events",
		"transform/sources/ga4/ga4_sessions.sql": "select * from raw.sessions",
		"transform/sources/ga4/ga4_users.sql":    "{{ config(unique_key=['user_id', 'day']) }}\nselect * from raw.users",
		"transform/sources/ga4/ga4_pages.sql":    "select * from raw.pages",
		"transform/sources/ga4/schema.yml":       "version: 2\nmodels:\n  - name: ga4_pages\n    config:\n      materialized: table\n",
		"transform/sources/stripe.sql":           "select 1",
		"transform/marts/dim_customer.sql":       "{{ config(materialized='incremental') }}\nselect 1",
		"transform/disabled/old.sql":             "select 1",
	})
	m := Open(dir, Options{}).Graph()
	cases := []struct {
		id, materialized, strategy, key string
	}{
		{"model.shop.ga4_events", "incremental", "", "event_id"},
		{"model.shop.ga4_sessions", "incremental", "append", "event_id"},
		{"model.shop.ga4_users", "incremental", "", "user_id,day"},
		{"model.shop.ga4_pages", "table", "", "event_id"},
		{"model.shop.stripe", "table", "", ""},
		{"model.shop.dim_customer", "incremental", "", ""},
	}
	for _, c := range cases {
		n := m.Node(c.id)
		if n == nil {
			t.Errorf("%s: no node", c.id)
			continue
		}
		got := [3]string{n.Config.Materialized, n.Config.IncrementalStrategy, strings.Join(n.Config.UniqueKey, ",")}
		if want := [3]string{c.materialized, c.strategy, c.key}; got != want {
			t.Errorf("%s: config %q, want %q", c.id, got, want)
		}
	}
	if m.Node("model.shop.old") != nil {
		t.Error("a model under +enabled: false exists")
	}
}

// Edges come from ref() and source() in every form dbt accepts, from the
// macros a model calls with its arguments bound, and from loops over
// literal lists; what cannot be read is listed, not guessed.
func TestEdges(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"dbt_project.yml": "name: shop\nvars:\n  chains: ['eth', 'sol']\n",
		"models/src.yml": `version: 2
sources:
  - name: raw
    schema: landing
    tables:
      - name: orders
        identifier: orders_v2
exposures:
  - name: board
    type: dashboard
    owner: {name: Finance}
    depends_on: ["ref('fct_orders')"]
`,
		"models/stg_orders.sql":  "select * from {{ source('raw', 'orders') }}",
		"models/fct_orders.sql":  "select * from {{ ref('shop', 'stg_orders') }} join {{ ref('dim_date', v=2) }} using (d)",
		"models/dim_date.sql":    "select 1 as d",
		"models/trades_eth.sql":  "select 1",
		"models/trades_sol.sql":  "select 1",
		"models/trades.sql":      "{% for c in var('chains') %}select * from {{ ref('trades_' ~ c) }}{% if not loop.last %} union all {% endif %}{% endfor %}",
		"models/imports.sql":     "{{ import_ctes([('o', 'fct_orders'), ('d', 'dim_date')]) }} select * from o",
		"models/dynamic.sql":     "{% set t = run_query('select 1') %}select * from {{ ref(t) }}",
		"models/package.sql":     "select * from {{ ref('dbt_artifacts', 'runs') }}",
		"macros/import_ctes.sql": "{% macro import_ctes(pairs) %}with {% for p in pairs %}{{ p[0] }} as (select * from {{ ref(p[1]) }}){% if not loop.last %},{% endif %}{% endfor %}{% endmacro %}",
		"snapshots/orders_history.sql": `{% snapshot orders_history %}
{{ config(target_schema='snapshots', unique_key='order_id', strategy='timestamp', updated_at='ts') }}
select * from {{ ref('fct_orders') }}
{% endsnapshot %}`,
		"seeds/countries.csv": "code\nDE\n",
	})
	p := Open(dir, Options{})
	m := p.Graph()
	parents := map[string][]string{
		"model.shop.stg_orders":        {"source.shop.raw.orders"},
		"model.shop.fct_orders":        {"model.shop.dim_date", "model.shop.stg_orders"},
		"model.shop.trades":            {"model.shop.trades_eth", "model.shop.trades_sol"},
		"model.shop.imports":           {"model.shop.dim_date", "model.shop.fct_orders"},
		"snapshot.shop.orders_history": {"model.shop.fct_orders"},
		"exposure.shop.board":          {"model.shop.fct_orders"},
		"model.shop.dynamic":           nil,
		"model.shop.package":           nil,
		"seed.shop.countries":          nil,
		"source.shop.raw.orders":       nil,
		"model.shop.trades_eth":        nil,
		"model.shop.dim_date":          nil,
		"model.shop.trades_sol":        nil,
	}
	for id, want := range parents {
		if m.Node(id) == nil {
			t.Errorf("%s: no node", id)
			continue
		}
		if got := m.Parents(id); !slices.Equal(got, want) {
			t.Errorf("%s: parents %v, want %v", id, got, want)
		}
	}
	if rel := m.RelationName(m.Node("source.shop.raw.orders")); rel != "landing.orders_v2" {
		t.Errorf("source relation %q, want landing.orders_v2", rel)
	}
	if rel := m.RelationName(m.Node("snapshot.shop.orders_history")); rel != "snapshots.orders_history" {
		t.Errorf("snapshot relation %q, want snapshots.orders_history", rel)
	}
	var unresolved []string
	for _, u := range p.Unresolved {
		unresolved = append(unresolved, filepath.Base(u.File)+" "+u.Call+": "+u.Why)
	}
	want := []string{
		"dynamic.sql ref(t): its arguments are not literals bflint can read",
		"package.sql ref('dbt_artifacts', 'runs'): it names a node of package dbt_artifacts, which is not read",
	}
	if !slices.Equal(unresolved, want) {
		t.Errorf("unresolved:\n%s\nwant:\n%s", strings.Join(unresolved, "\n"), strings.Join(want, "\n"))
	}
	if n := m.Node("exposure.shop.board"); n.Type != "dashboard" || n.Owner.Name != "Finance" {
		t.Errorf("exposure %+v", n)
	}
	if got := m.Node("seed.shop.countries").ResourceType; got != manifest.Seed {
		t.Errorf("countries is a %s", got)
	}
}

// Vars read by a project macro are the names a command's --vars sets.
func TestMacroVars(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"dbt_project.yml": "name: shop\n",
		"macros/naming.sql": `{% macro generate_schema_name(custom, node) -%}{{ var("schema_suffix", "") }}{%- endmacro %}
{% macro generate_alias_name(custom_alias_name=none, node=none) -%}
    {%- if var('backfill_id', none) -%}{{ node.name }}__{{ var('backfill_id') }}{%- else -%}{{ node.name }}{%- endif -%}
{%- endmacro %}`,
	})
	p := Open(dir, Options{})
	if got := p.MacroVars("generate_alias_name"); !slices.Equal(got, []string{"backfill_id"}) {
		t.Errorf("generate_alias_name reads %q, want [backfill_id] once", got)
	}
	if got := p.MacroVars("generate_schema_name"); !slices.Equal(got, []string{"schema_suffix"}) {
		t.Errorf("generate_schema_name reads %q", got)
	}
	if got := p.MacroVars("other"); got != nil {
		t.Errorf("an undefined macro reads %q", got)
	}
}

// A properties file or dbt_project.yml that cannot be read is a problem
// of the project, listed; the rest is still read.
func TestProblems(t *testing.T) {
	dir := testfs.Tree(t, map[string]string{
		"dbt_project.yml":   "name: shop\nmodels: [unclosed\n",
		"models/bad.yml":    "models:\n  - name: x\n    config: {materialized: table\n",
		"models/orders.sql": "select 1",
	})
	p := Open(dir, Options{})
	m := p.Graph()
	if m.Node("model."+filepath.Base(dir)+".orders") == nil {
		t.Errorf("the model was not read past the problems: %v", m.IDs())
	}
	if len(p.Problems) != 2 {
		t.Errorf("problems %+v, want the two YAML files", p.Problems)
	}
}

// Only a properties file that may configure a node is parsed for the
// nodes: tests' config blocks and tags are not a node's config bflint
// reads.
func TestNodeConfigPrefilter(t *testing.T) {
	cases := []struct {
		yaml string
		want bool
	}{
		{"models:\n  - name: x\n    config:\n      materialized: table\n", true},
		{"models:\n  - name: x\n    description: y\n    config: {unique_key: id}\n", true},
		{"models:\n  - name: x\n    config:\n      tags: ['a']\n      meta: {owner: me}\n", false},
		{"models:\n  - name: x\n    data_tests:\n      - unique_combination:\n          config:\n            severity: warn\n", false},
		{"snapshots:\n  - name: s\n", true},
		{"sources:\n  - name: raw\n    tables: [{name: t}]\n", false},
		{"config:\n  materialized: table\n", false},
		{"models:\r\n  - name: x\r\n    config:\r\n      materialized: table\r\n", true},
		{"models:\n  - name: x\n    columns:\n      - name: c\n        data_tests: [{unique: {config: {severity: warn}}}]\n  - name: y\n    config: {alias: z}", true},
		{"models:\n  - name: x\n    my_config: {materialized: table}\n", false},
	}
	for _, c := range cases {
		if got := nodeConfig([]byte(c.yaml)); got != c.want {
			t.Errorf("nodeConfig(%q) = %v, want %v", c.yaml, got, c.want)
		}
	}
}

// The folders dbt_project.yml names may lie above the project, as a
// repository's common macros do, but never outside its work tree: a
// hostile file would make the walk the whole file system.
func TestPathsStayInTheRepository(t *testing.T) {
	repo := testfs.Tree(t, map[string]string{
		".git/HEAD":                          "ref: refs/heads/main\n",
		"common/macros/cents.sql":            "{% macro cents(x) %}{{ x }} * 100{% endmacro %}",
		"projects/shop/dbt_project.yml":      "name: shop\nmacro-paths: [\"macros\", \"../../common/macros\", \"../../..\"]\nmodel-paths: [\"/models\"]\n",
		"projects/shop/macros/dollars.sql":   "{% macro dollars(x) %}{{ x }} / 100{% endmacro %}",
		"projects/shop/models/orders.sql":    "select 1 as x",
		"projects/shop/models/m/refunds.sql": "select 2 as x",
	})
	p := Open(filepath.Join(repo, "projects", "shop"), Options{})
	for _, name := range []string{"cents", "dollars"} {
		if _, ok := p.Macros[name]; !ok {
			t.Errorf("macro %s, from a folder inside the repository, not read", name)
		}
	}
	var outside []string
	for _, pr := range p.Problems {
		if strings.Contains(pr.Msg, "outside") {
			outside = append(outside, pr.Msg)
		}
	}
	if len(outside) != 1 || !strings.Contains(outside[0], `"../../.."`) {
		t.Errorf("problems about folders outside the repository: %q, want one naming ../../..", outside)
	}
	// A folder written as absolute is read below the project, never from
	// the root of the file system.
	if n := len(p.Nodes().Nodes()); n != 2 {
		t.Errorf("read %d models from /models, want the 2 below the project", n)
	}
}

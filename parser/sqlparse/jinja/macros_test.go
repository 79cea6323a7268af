package jinja

import "testing"

func TestReadMacros(t *testing.T) {
	src := `{%- macro audit_final(cte_ref, by) -%}
    SELECT *, '{{ by }}'::VARCHAR AS created_by,
    {% if execute %} CURRENT_TIMESTAMP() AS dbt_created_at {% endif %}
    FROM {{ cte_ref }}
{%- endmacro -%}

{% macro lms_intermediate(name) %}
WITH
source AS (
  SELECT * FROM {{ source('lms', name) }}
),
intermediate AS (
  SELECT d.value FROM source, LATERAL FLATTEN(input => jsontext) d
),
{% endmacro %}

{% macro bucket_columns(col) %}
  CASE WHEN {{ col }} = 'a' THEN 'x' END AS bucket, -- the bucket
  {{ col }} AS raw_bucket,
{% endmacro %}

{% macro grant_all() %}
  {% do run_query('grant select on all tables') %}
{% endmacro %}

{% macro union_feeds(feeds) %}
  {%- set columns = adapter.get_columns_in_relation(this) -%}
  {%+ if is_incremental() %}
  WITH newest AS (SELECT MAX(loaded_at) AS at FROM {{ this }})
  {% endif %}
  {% for feed in feeds %}
  SELECT * FROM {{ feed }}
  {%- if not is_incremental() %} WHERE TRUE {% endif %}
  {% endfor %}
{% endmacro %}`
	got := map[string]Macro{}
	ReadMacros(src, got)
	want := map[string]Macro{
		"audit_final":      {Shape: MacroQuery},
		"lms_intermediate": {Shape: MacroWithHead},
		"bucket_columns":   {Shape: MacroSelectItems},
		// Its shape cannot be told, but a model that calls it leaves the
		// incremental filter to it.
		"union_feeds": {Incremental: true},
	}
	if len(got) != len(want) {
		t.Errorf("read %v, want %v", got, want)
	}
	for name, m := range want {
		if got[name] != m {
			t.Errorf("%s: read %+v, want %+v", name, got[name], m)
		}
	}
}

func TestMacroVars(t *testing.T) {
	src := `{% macro generate_schema_name(custom, node) -%}{{ var("schema_suffix", "") }}{%- endmacro %}
{% macro generate_alias_name(custom_alias_name=none, node=none) -%}
    {%- if var('backfill_id', none) -%}{{ node.name }}__{{ var('backfill_id') }}{%- else -%}{{ node.name }}{%- endif -%}
{%- endmacro %}`
	if got := MacroVars(src, "generate_alias_name"); len(got) != 1 || got[0] != "backfill_id" {
		t.Errorf("generate_alias_name reads %q, want [backfill_id] once", got)
	}
	if got := MacroVars(src, "generate_schema_name"); len(got) != 1 || got[0] != "schema_suffix" {
		t.Errorf("generate_schema_name reads %q, want [schema_suffix]", got)
	}
	if got := MacroVars(src, "other"); got != nil {
		t.Errorf("an undefined macro reads %q", got)
	}
}

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
{% endmacro %}`
	got := map[string]MacroShape{}
	ReadMacros(src, got)
	want := map[string]MacroShape{"audit_final": MacroQuery, "lms_intermediate": MacroWithHead, "bucket_columns": MacroSelectItems}
	if len(got) != len(want) {
		t.Errorf("read %v, want %v", got, want)
	}
	for name, shape := range want {
		if got[name] != shape {
			t.Errorf("%s: shape %d, want %d", name, got[name], shape)
		}
	}
}

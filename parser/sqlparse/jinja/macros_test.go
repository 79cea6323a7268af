package jinja

import (
	"slices"
	"strings"
	"testing"
)

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
	type read struct {
		shape       MacroShape
		incremental bool
		params      string
	}
	want := map[string]read{
		"audit_final":      {MacroQuery, false, "cte_ref by"},
		"lms_intermediate": {MacroWithHead, false, "name"},
		"bucket_columns":   {MacroSelectItems, false, "col"},
		"grant_all":        {MacroUnknown, false, ""},
		// Its shape cannot be told, but a model that calls it leaves the
		// incremental filter to it.
		"union_feeds": {MacroUnknown, true, "feeds"},
	}
	if len(got) != len(want) {
		t.Errorf("read %v, want %v", got, want)
	}
	for name, w := range want {
		m := got[name]
		var params []string
		for _, p := range m.Params {
			params = append(params, p.Name)
		}
		if r := (read{m.Shape, m.Incremental, strings.Join(params, " ")}); r != w {
			t.Errorf("%s: read %+v, want %+v", name, r, w)
		}
		if !strings.Contains(src, m.Body) || m.Body == "" {
			t.Errorf("%s: body %q is not the text between its tags", name, m.Body)
		}
	}
}

func TestMacroParamDefaults(t *testing.T) {
	got := map[string]Macro{}
	ReadMacros(`{%- macro incremental_window(col, days=7, since=none, cols=['a', 'b']) -%} {{ col }} {%- endmacro -%}`, got)
	want := []Param{{"col", ""}, {"days", "7"}, {"since", "none"}, {"cols", "['a', 'b']"}}
	if !slices.Equal(got["incremental_window"].Params, want) {
		t.Errorf("params %+v, want %+v", got["incremental_window"].Params, want)
	}
}

{%- materialization swap_table, adapter='databricks' -%}
  {%- set target = this -%}
  {%- set staging = make_temp_relation(this, '__swap') -%}

  {% call statement('build_staging') %}
    create or replace table {{ staging }} as {{ sql }}
  {% endcall %}

  {% call statement('main') %}
    alter table {{ staging }} rename to {{ target }}
  {% endcall %}

  {{ adapter.commit() }}
  {{ return({'relations': [target]}) }}
{%- endmaterialization -%}

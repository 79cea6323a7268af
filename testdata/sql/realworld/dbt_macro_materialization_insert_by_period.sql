{% materialization insert_by_period, adapter='snowflake' -%}

  {%- set target_relation = this.incorporate(type='table') -%}
  {%- set period = config.require('period') -%}
  {%- set existing = load_relation(this) -%}

  {{ run_hooks(pre_hooks) }}

  {% if existing is none %}
    {% call statement('main') -%}
      create table {{ target_relation }} as (
        {{ sql | replace('__PERIOD_FILTER__', 'false') }}
      )
    {%- endcall %}
  {% else %}
    {% for p in range(config.get('periods', 1)) %}
      {% call statement('main') -%}
        insert into {{ target_relation }}
        {{ sql | replace('__PERIOD_FILTER__', period ~ ' = ' ~ p) }}
      {%- endcall %}
    {% endfor %}
  {% endif %}

  {{ run_hooks(post_hooks) }}

  {{ return({'relations': [target_relation]}) }}

{%- endmaterialization %}

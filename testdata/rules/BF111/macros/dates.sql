{% macro run_date() %}
  {%- if var('run_date', none) is not none -%}
    '{{ var("run_date") }}'
  {%- else -%}
    current_date()
  {%- endif -%}
{% endmacro %}

{% macro recent_days(column, days) %}
  {{ column }} >= dateadd(day, -{{ days }}, current_date())
{% endmacro %}

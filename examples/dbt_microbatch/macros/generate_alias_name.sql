{#- A backfill run names its tables after the plan: with
    --vars '{"backfill_id": "bf20260302_a"}' fct_sessions is written as
    fct_sessions__bf20260302_a, so two runs never share a table. -#}
{% macro generate_alias_name(custom_alias_name=none, node=none) -%}
    {%- set name = custom_alias_name or node.name -%}
    {%- if var('backfill_id', none) -%}
        {{ name }}__{{ var('backfill_id') }}
    {%- else -%}
        {{ name }}
    {%- endif -%}
{%- endmacro %}

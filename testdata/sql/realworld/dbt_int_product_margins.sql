{{ config(materialized='table') }}

{% call statement('latest_cost_date', fetch_result=True) %}
    select max(cost_date) from {{ ref('stg_erp__product_costs') }}
{% endcall %}

{%- set latest_cost_date = load_result('latest_cost_date')['data'][0][0] -%}

select
    p.product_id,
    p.list_price,
    c.unit_cost,
    p.list_price - c.unit_cost as unit_margin
from {{ ref('stg_shop__products') }} as p
join {{ ref('stg_erp__product_costs') }} as c
    on c.product_id = p.product_id
    and c.cost_date = '{{ latest_cost_date }}'

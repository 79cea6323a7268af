{{ config(materialized='table', schema='core') }}

{% set margin_band %}
    case
        when list_price = 0 then 'free'
        when (list_price - unit_cost) / list_price >= 0.5 then 'high'
        when (list_price - unit_cost) / list_price >= 0.2 then 'medium'
        else 'low'
    end
{% endset %}

select
    p.product_id,
    p.product_name,
    p.category,
    m.unit_cost,
    p.list_price,
    {{ margin_band }} as margin_band,
    '{{ target.schema }}' as built_in_schema
from {{ ref('stg_shop__products') }} as p
left join {{ ref('int_product_margins') }} as m using (product_id)

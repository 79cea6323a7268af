{{ config(materialized='table') }}

select
    o.order_id,
    o.ordered_at,
    c.customer_id,
    c.customer_tier as tier_at_order_time
from {{ ref('fct_orders') }} as o
join {{ ref('customers_snapshot') }} as c
    on c.customer_id = o.customer_id
    and o.ordered_at >= c.dbt_valid_from
    and o.ordered_at < coalesce(c.dbt_valid_to, '9999-12-31'::timestamp)

{{ config(materialized='table', tags=['core']) }}

with customers as (
    select {{ dbt_utils.star(ref('stg_shop__customers')) }}
    from {{ ref('stg_shop__customers') }}
),

order_stats as (
    select
        customer_id,
        min(ordered_at) as first_ordered_at,
        max(ordered_at) as last_ordered_at,
        count(*) as lifetime_orders,
        sum(order_total) as lifetime_value
    from {{ ref('fct_orders') }}
    group by customer_id
)

select
    c.*,
    s.first_ordered_at,
    s.last_ordered_at,
    coalesce(s.lifetime_orders, 0) as lifetime_orders,
    coalesce(s.lifetime_value, 0) as lifetime_value
from customers as c
left join order_stats as s on s.customer_id = c.customer_id

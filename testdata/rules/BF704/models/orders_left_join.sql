{{ config(materialized='table') }}
-- A LEFT JOIN keeps every order; current versions only leave segment NULL.
select o.order_id, s.segment
from {{ ref('stg_orders') }} as o
left join {{ ref('customers_snapshot') }} as s
    on s.customer_id = o.customer_id
    and o.ordered_at >= s.dbt_valid_from
    and o.ordered_at < s.dbt_valid_to

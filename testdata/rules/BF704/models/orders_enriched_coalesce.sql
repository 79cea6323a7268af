{{ config(materialized='incremental', unique_key='order_id', incremental_strategy='merge') }}
-- The same model with the open end given a value: current versions match.
select
    o.order_id,
    o.ordered_at,
    s.segment
from {{ ref('stg_orders') }} as o
join {{ ref('customers_snapshot') }} as s
    on s.customer_id = o.customer_id
    and o.ordered_at >= s.dbt_valid_from
    and o.ordered_at < coalesce(s.dbt_valid_to, '9999-12-31')
{% if is_incremental() %}
where o.ordered_at > (select max(ordered_at) from {{ this }})
{% endif %}

{{ config(materialized='incremental', unique_key='order_id', incremental_strategy='merge') }}
-- An inner join to a dbt snapshot: the customers whose current version has
-- NULL dbt_valid_to lose all their orders since their last change.
select
    o.order_id,
    o.ordered_at,
    s.segment
from {{ ref('stg_orders') }} as o
join {{ ref('customers_snapshot') }} as s  -- want BF704:error "inner join to dbt snapshot \"customers_snapshot\" \\(alias \"s\"\\) compares \"s.dbt_valid_to\" without handling NULL, but the snapshot's current versions have NULL s.dbt_valid_to.*every row whose version is current silently vanishes; write <event time> >= s.dbt_valid_from AND <event time> < COALESCE\\(s.dbt_valid_to, '9999-12-31'\\)"
    on s.customer_id = o.customer_id
    and o.ordered_at >= s.dbt_valid_from
    and o.ordered_at < s.dbt_valid_to
{% if is_incremental() %}
where o.ordered_at > (select max(ordered_at) from {{ this }})
{% endif %}

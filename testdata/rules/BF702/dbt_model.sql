{{ config(materialized='incremental', unique_key='order_id', incremental_strategy='merge') }}
-- A dbt model that reads the snapshot's current rows; both Jinja branches
-- carry the join, and the finding is reported once.
select
    o.order_id,
    o.ordered_at,
    s.segment
from {{ ref('stg_orders') }} as o
join {{ ref('customers_snapshot') }} as s  -- want BF702 "\"customers_snapshot\" \\(alias \"s\"\\) keeps only its current version \\(s.dbt_valid_to IS NULL\\).*<event time> < COALESCE\\(s.dbt_valid_to, '9999-12-31'\\)"
    on s.customer_id = o.customer_id
    and s.dbt_valid_to is null
{% if is_incremental() %}
where o.ordered_at > (select max(ordered_at) from {{ this }})
{% endif %}

{{ config(materialized='ephemeral') }}

select
    customer_id,
    cast(ordered_at as date) as order_date,
    count(*) as orders,
    sum(order_total) as order_total
from {{ ref('stg_shop__orders') }}
where order_status not in ('cancelled', 'test')
{{ dbt_utils.group_by(n=2) }}

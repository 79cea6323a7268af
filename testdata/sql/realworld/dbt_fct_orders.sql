{{ config({
    "materialized": "incremental",
    "incremental_strategy": "merge",
    "unique_key": ["order_id", "order_date"],
    "cluster_by": ["order_date"],
    "tags": ["finance", "hourly"]
}) }}

with orders as (
    select * from {{ ref('int_orders_enriched') }}
    {% if is_incremental() %}
    where updated_at >= (select dateadd(day, -{{ var('order_lookback_days', 3) }}, max(updated_at)) from {{ this }})
    {% endif %}
)

select
    order_id,
    cast(ordered_at as date) as order_date,
    customer_id,
    order_status,
    order_total,
    paid_amount,
    order_total - coalesce(paid_amount, 0) as outstanding_amount,
    updated_at,
    {{ dbt.current_timestamp() }} as dbt_loaded_at
from orders

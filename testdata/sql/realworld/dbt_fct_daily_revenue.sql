{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    partition_by={'field': 'revenue_date', 'data_type': 'date', 'granularity': 'day'},
    partitions=["date_sub(current_date, interval 1 day)", "current_date"]
) }}

select
    cast(ordered_at as date) as revenue_date,
    country_code,
    count(distinct order_id) as orders,
    sum(order_total) as gross_revenue
from {{ ref('fct_orders') }}
{% if is_incremental() %}
where cast(ordered_at as date) >= date_sub(current_date, interval {{ var('revenue_lookback_days', 3) }} day)
{% endif %}
{{ dbt_utils.group_by(2) }}

{{ config(materialized='incremental', incremental_strategy='merge', unique_key='order_id') }}
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}
{% if is_incremental() %}
where order_date >= '2026-01-14'
{% endif %}

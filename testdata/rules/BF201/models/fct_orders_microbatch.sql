{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_date', begin='2024-01-01', batch_size='day') }}
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

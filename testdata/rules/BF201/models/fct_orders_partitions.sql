-- Strategies that replace partitions or batches converge without a key,
-- and a model that is not incremental rebuilds itself.
{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by={'field': 'order_date', 'data_type': 'date'}) }}
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

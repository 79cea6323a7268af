{{ config(materialized='incremental', unique_key='order_id') }}
select order_id, order_date, amount from {{ ref('stg_orders') }}

{{ config(materialized='incremental') }}  -- want BF201 "dbt model \"fct_orders_no_key\" is incremental with the adapter's default incremental strategy and no unique_key"
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

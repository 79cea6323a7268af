{{ config(materialized='incremental', incremental_strategy='append') }}  -- want BF201 "dbt model \"fct_orders_append\" is incremental with incremental_strategy append: every run inserts its rows again"
-- A high-watermark with >= reads the rows at the watermark again on every
-- run, so they are appended twice.
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}
{% if is_incremental() %}
where order_date >= (select max(order_date) from {{ this }})
{% endif %}

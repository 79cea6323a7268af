{{
  config(
    materialized = "incremental",
    incremental_strategy = "delete+insert"
  )
}}  -- want -5 BF201 "incremental with incremental_strategy delete\\+insert and no unique_key"
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

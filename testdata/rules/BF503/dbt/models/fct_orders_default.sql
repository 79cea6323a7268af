select order_id, order_date, amount_minor  -- want BF201 "dbt model \"model.shop.fct_orders_default\" .* is incremental with the adapter's default incremental strategy and no unique_key"
from {{ ref('stg_orders') }}

{{ config(materialized='incremental', unique_key='order_id') }}
select order_id, order_date, amount from {{ source('shop', 'orders') }}
{% if is_incremental() %}  -- want +1 BF111:info "follows the clock"
where order_date >= current_date - 3  -- related BF111 "decides which partitions a run of fct_orders_recent computes"
{% endif %}

{{ config(materialized='incremental', unique_key='order_id') }}
select order_id, order_date, amount from {{ source('shop', 'orders') }}
{% if is_incremental() %}
where order_date between '{{ var("start") }}' and '{{ var("end") }}'
{% endif %}

{{ config(
    materialized='incremental',
    incremental_strategy='merge',
    unique_key='order_id',
    partition_by={'field': 'order_date', 'data_type': 'date'},
    cluster_by=['order_id']
) }}

-- One row per order. The deploy of 2026-08-03 (7d1e4b2) subtracted the
-- voucher discount twice from net_amount_minor; the fix of 2026-09-21 put
-- back the expression below. plans/fct_orders.backfill.yaml corrects the
-- days in between.
SELECT
    order_id,
    customer_id,
    order_date,
    order_ts,
    currency,
    amount_minor,
    discount_minor,
    amount_minor - discount_minor AS net_amount_minor
FROM {{ ref('stg_orders') }}
{% if is_incremental() %}
-- The scheduler passes the days to (re)compute, both included; a run
-- without them fails instead of guessing.
WHERE order_date BETWEEN '{{ var("start_date") }}' AND '{{ var("end_date") }}'
{% endif %}

{{ config(materialized='view') }}

-- One row per order as the shop's order service records it.
SELECT
    order_id,
    customer_id,
    DATE(order_ts) AS order_date,
    order_ts,
    currency,
    amount_minor,
    COALESCE(voucher_discount_minor, 0) AS discount_minor
FROM {{ source('raw', 'orders') }}

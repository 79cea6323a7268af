{{ config(materialized='incremental', incremental_strategy='merge', unique_key='order_id') }}

-- One row per order. A refunded order keeps its gross amount but nets to
-- zero; the deploy of 2026-01-14 (3f2a9c1) had lost that CASE, which is the
-- bug the plans in this folder correct.
SELECT
    r.order_id,
    r.customer_id,
    r.order_date,
    r.order_ts,
    d.country,
    r.amount_minor,
    r.is_refunded,
    CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END AS net_amount_minor
FROM {{ source('raw', 'orders_events') }} AS r
JOIN {{ source('dim', 'customer_snapshot') }} AS d
    ON d.customer_id = r.customer_id
   AND r.order_ts >= d.valid_from
   AND r.order_ts < COALESCE(d.valid_to, TIMESTAMP '9999-12-31 00:00:00')
{% if is_incremental() %}
WHERE r.order_date > (SELECT MAX(order_date) FROM {{ this }})
{% endif %}

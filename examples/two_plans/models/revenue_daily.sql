{{ config(materialized='table') }}

-- The mart finance reads: net revenue per order day.
SELECT
    order_date,
    COUNT(*) AS order_count,
    SUM(net_amount_minor) AS net_revenue_minor
FROM {{ ref('int_orders') }}
GROUP BY order_date

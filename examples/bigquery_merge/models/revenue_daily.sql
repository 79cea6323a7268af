{{ config(
    materialized='table',
    partition_by={'field': 'order_date', 'data_type': 'date'}
) }}

-- Net revenue per day and currency, as the finance dashboard shows it.
SELECT
    order_date,
    currency,
    COUNT(*) AS orders,
    SUM(net_amount_minor) AS net_revenue_minor
FROM {{ ref('fct_orders') }}
GROUP BY order_date, currency

{{ config(materialized='ephemeral') }}

-- The orders that count towards revenue, at their net amount.
SELECT order_id, order_date, net_amount_minor
FROM {{ ref('fct_orders') }}

{{ config(materialized='table') }}

SELECT
    DATE_TRUNC('week', session_date) AS week_start,
    COUNT(*) AS sessions,
    SUM(page_views) AS page_views
FROM {{ ref('fct_sessions') }}
GROUP BY DATE_TRUNC('week', session_date)

{{ config(materialized='view') }}

SELECT
    session_id,
    user_id,
    started_at,
    page_views,
    is_bot
FROM {{ source('raw', 'sessions') }}

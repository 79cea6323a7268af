{{ config(
    materialized='incremental',
    incremental_strategy='microbatch',
    event_time='started_at',
    batch_size='day',
    begin='2025-01-01',
    partition_by={'field': 'session_date', 'data_type': 'date'}
) }}

-- One row per session a person started. The deploy of 2026-03-02 (9c41d2e)
-- lost the bot filter below, so bot sessions were counted until it was put
-- back on 2026-04-16: the bug the plan in this folder corrects.
SELECT
    session_id,
    user_id,
    started_at,
    CAST(started_at AS DATE) AS session_date,
    page_views
FROM {{ ref('stg_sessions') }}
WHERE NOT is_bot

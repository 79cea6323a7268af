{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='event_id') }}

-- The range to recompute comes in as vars on the command line.
SELECT event_id, event_date, amount
FROM {{ source('raw', 'events') }}
WHERE event_date >= '{{ var("backfill_start") }}'
  AND event_date <= '{{ var("backfill_end") }}'

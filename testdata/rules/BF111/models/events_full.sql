{{ config(unique_key='event_id') }}
-- No incremental filter: every run merges everything it selects.
select event_id, event_ts, current_timestamp() as loaded_at from {{ source('app', 'events') }}

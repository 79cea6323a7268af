{{ config(incremental_strategy='microbatch', event_time='event_ts', batch_size='day', begin='2025-01-01') }}
select event_id, event_ts from {{ ref('events_by_vars') }}

{{ config(materialized='view') }}

select
    session_id,
    user_id,
    device_type,
    started_at,
    ended_at
from {{ dedupe_by_latest(source('app', 'sessions'), partition_by='session_id', order_by='_loaded_at') }}
where started_at is not null

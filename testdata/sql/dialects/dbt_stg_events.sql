{{ config(materialized='view') }}

select
  event_id,
  user_id,
  event_name,
  timestamp_micros(event_ts_us) as event_ts,
  cast(json_value(payload, '$.duration_ms') as int64) as duration_ms
from {{ source('raw', 'events') }}
where event_name in ('session_start', 'session_end', 'page_view')

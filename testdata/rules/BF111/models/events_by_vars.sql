{{ config(unique_key='event_id') }}
-- The range is given by the command: dbt run --vars '{start: ..., end: ...}'.
select event_id, event_ts, current_timestamp() as loaded_at
from {{ source('app', 'events') }}
{% if is_incremental() %}
where event_ts >= '{{ var("start") }}' and event_ts < '{{ var("end") }}'
{% endif %}

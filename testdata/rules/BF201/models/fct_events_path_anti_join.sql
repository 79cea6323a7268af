{{ config(materialized='incremental') }}
-- Events kept as a VARIANT and read by path; an anti-join against the
-- table itself keeps only new events.
select e.payload:id::string as event_id, e.payload:created_at::timestamp as created_at
from {{ ref('stg_raw_events') }} as e
{% if is_incremental() %}
left join {{ this }} as t on t.event_id = e.payload:id::string
where t.event_id is null
{% endif %}

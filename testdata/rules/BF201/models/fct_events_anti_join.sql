{{ config(materialized='incremental') }}
-- An anti-join against the table itself keeps only new events.
select e.event_id, e.created_at
from {{ ref('stg_events') }} as e
{% if is_incremental() %}
left join {{ this }} as t on t.event_id = e.event_id
where t.event_id is null
{% endif %}

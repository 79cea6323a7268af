{{ config(materialized='incremental', incremental_strategy='append') }}
-- Appending, but only the events the table does not hold yet.
select e.event_id, e.created_at
from {{ ref('stg_events') }} as e
{% if is_incremental() %}
where not exists (select 1 from {{ this }} as t where t.event_id = e.event_id)
{% endif %}

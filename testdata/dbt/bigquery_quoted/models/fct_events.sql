-- An append guarded by an anti-join against the model itself: a re-run
-- inserts nothing twice.
{{ config(materialized='incremental', incremental_strategy='append') }}
select e.event_id, e.ts
from {{ ref('stg_events') }} as e
{% if is_incremental() %}
where e.event_id not in (select event_id from {{ this }})
{% endif %}

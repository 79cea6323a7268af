{{ config(materialized='incremental') }}
-- No unique_key, but each run takes only rows newer than any the table
-- holds: a re-run inserts nothing twice.
select event_id, created_at, payload
from {{ ref('stg_events') }}
{% if is_incremental() %}
where created_at > (select max(created_at) from {{ this }})
{% endif %}

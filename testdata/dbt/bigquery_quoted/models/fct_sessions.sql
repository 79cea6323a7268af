-- Keyless and unguarded: every run inserts the sessions it reads again.
{{ config(materialized='incremental') }}
select s.session_id, min(s.ts) as started_at
from {{ ref('stg_events') }} as s
{% if is_incremental() %}
where s.ts >= (select max(started_at) from {{ this }})
{% endif %}
group by s.session_id

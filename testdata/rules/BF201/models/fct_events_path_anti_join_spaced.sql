{{ config(materialized='incremental') }}
-- fct_events_path_anti_join with blanks around the path's colons: the
-- same model, so the same findings.
select e.payload :id :: string as event_id, e.payload: created_at :: timestamp as created_at
from {{ ref('stg_raw_events') }} as e
{% if is_incremental() %}
left join {{ this }} as t on t.event_id = e.payload :"id" :: string
where t.event_id is null
{% endif %}

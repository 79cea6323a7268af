{{ config(materialized='incremental') }}  -- want BF201 "dbt model \"fct_events_path_boundary_spaced\" is incremental"
-- fct_events_path_boundary with blanks around the path's colons.
select e.payload :id :: string as event_id, e.payload: meta: created_at :: timestamp as created_at
from {{ ref('stg_raw_events') }} as e
{% if is_incremental() %}
where e.payload: meta: created_at :: timestamp >= (select max(created_at) from {{ this }})
{% endif %}

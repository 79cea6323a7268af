{{ config(materialized='incremental', incremental_strategy='append') }}

select
    event_id,
    session_id,
    event_name,
    page_path,
    event_at
from {{ ref('stg_events') }}
{% if not is_incremental() %}
where event_at >= '2022-01-01'
{% else %}
where event_at > (select max(event_at) from {{ this }})
{% endif %}

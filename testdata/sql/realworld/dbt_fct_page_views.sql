{{- config(
    materialized='incremental',
    incremental_strategy='delete+insert',
    unique_key=['view_date', 'page_path']
) -}}

select
    cast(event_at as date) as view_date,
    page_path,
    count(*) as views,
    count(distinct session_id) as sessions
from {{ ref('fct_web_events') }}
where event_name = 'page_view'
{%- if not is_incremental() %}
  and event_at >= '2022-01-01'
{%- else %}
  and cast(event_at as date) >= (select max(view_date) from {{ this }})
{%- endif %}
group by 1, 2

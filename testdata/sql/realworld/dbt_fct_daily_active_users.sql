{{ config(
    materialized='incremental',
    unique_key=['activity_date', 'platform'],
    incremental_strategy='delete+insert'
) }}

select
    cast(event_at as date) as activity_date,
    platform,
    count(distinct user_id) as active_users
from {{ ref('stg_events') }}
where event_at < {{ dbt.date_trunc('day', dbt.current_timestamp()) }}
{%- if is_incremental() %}
  and event_at >= {{ dbt.dateadd('day', -3, "(select max(activity_date) from " ~ this ~ ")") }}
{%- endif %}
group by 1, 2

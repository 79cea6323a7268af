{{- config(materialized='incremental', unique_key='session_key', incremental_strategy='delete+insert') -}}

with events as (
    select
        user_id,
        event_at,
        lag(event_at) over (partition by user_id order by event_at) as previous_event_at
    from {{ ref('stg_events') }}
    {%- if is_incremental() %}
    where event_at >= (select dateadd(hour, -{{ var('session_lookback_hours', 6) }}, max(session_started_at)) from {{ this }})
    {%- endif %}
),

flagged as (
    select
        *,
        case
            when previous_event_at is null then 1
            when datediff('minute', previous_event_at, event_at) > {{ var('session_timeout_minutes', 30) }} then 1
            else 0
        end as is_new_session
    from events
),

numbered as (
    select
        *,
        sum(is_new_session) over (partition by user_id order by event_at rows between unbounded preceding and current row) as session_number
    from flagged
)

select
    {{ dbt_utils.generate_surrogate_key(['user_id', 'session_number']) }} as session_key,
    user_id,
    min(event_at) as session_started_at,
    max(event_at) as session_ended_at,
    count(*) as events_in_session
from numbered
group by user_id, session_number

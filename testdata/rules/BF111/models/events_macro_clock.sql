{{ config(unique_key='event_id') }}
-- The macro holds the window: seven days back from today.
select event_id, event_ts from {{ source('app', 'events') }}
{% if is_incremental() %}  -- want +1 BF111:info "follows the clock"
where {{ recent_days('event_ts', 7) }}
{% endif %}

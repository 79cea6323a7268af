{{ config(unique_key='event_id') }}
-- run_date() returns today unless the command passes a var: a run with
-- no var follows the clock.
select event_id, event_ts from {{ source('app', 'events') }}
{% if is_incremental() %}  -- want +1 BF111:info "follows the clock"
where cast(event_ts as date) = {{ run_date() }}
{% endif %}

{{ config(unique_key='event_id') }}
select event_id, event_ts, payload from {{ source('app', 'events') }}
{% if is_incremental() %}  -- want +1 BF111:info "dbt model \"events_recent\" cannot be backfilled by range: its incremental filter follows the clock \\(current_date\\)"
where event_ts >= current_date - interval '3 days'
{% endif %}

{{ config(unique_key='event_id') }}
select event_id, event_ts, payload from {{ source('app', 'events') }}
{% if is_incremental() %}  -- want +1 BF111:info "dbt model \"events_high_water\" cannot be backfilled by range: its incremental filter starts from the rows the model already holds \\(a high-water mark, or only the rows it lacks\\), so a run for a past range it already holds writes nothing"
where event_ts > (select max(event_ts) from {{ this }})
{% endif %}

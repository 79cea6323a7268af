{{ config(unique_key='event_id') }}
{% set yesterday = (modules.datetime.date.today() - modules.datetime.timedelta(days=1)).isoformat() %}
select event_id, event_ts from {{ source('app', 'events') }}
{% if is_incremental() %}  -- want +1 BF111:info "follows the clock \\(the time of the run"
where cast(event_ts as date) = '{{ yesterday }}'
{% endif %}

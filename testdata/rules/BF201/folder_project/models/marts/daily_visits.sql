-- A view by the project's default.
select date_trunc('day', event_ts) as day, count(*) as visits from raw.ga4_events group by 1

-- Keyed in the properties file beside it.
select user_id, min(event_ts) as first_seen from raw.ga4_events group by user_id

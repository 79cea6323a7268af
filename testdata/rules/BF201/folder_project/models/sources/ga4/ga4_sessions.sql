-- The folder makes it incremental; its own config() gives the key.
{{ config(unique_key='session_id') }}
select session_id, max(event_ts) as last_seen from raw.ga4_events group by session_id

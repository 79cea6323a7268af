{{ config(materialized='incremental') }}  -- want BF201 "dbt model \"feed_events_reloaded\" is incremental with the adapter's default incremental strategy and no unique_key"
-- The macro's filter is a non-strict watermark: the newest day's rows are
-- inserted again on each run.
{{ reload_feeds(['web_events']) }}

{{ config(materialized='incremental') }}  -- want BF201 "dbt model \"feed_events_all\" is incremental with the adapter's default incremental strategy and no unique_key"
-- This macro never looks at is_incremental(): every run appends all of it.
{{ union_all_feeds(['web_events', 'app_events']) }}

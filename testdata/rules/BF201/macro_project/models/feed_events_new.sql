{{ config(materialized='incremental') }}
-- The macro leaves out the ids already loaded: a re-run inserts nothing
-- twice.
{{ new_feed_rows('web_events') }}

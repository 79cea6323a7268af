{{ config(materialized='incremental') }}
-- The whole query comes from a project macro that decides for itself what
-- an incremental run reads: bflint does not render it, so it cannot tell
-- whether a re-run inserts rows twice, and says nothing.
{{ union_feeds(['web_events', 'app_events']) }}

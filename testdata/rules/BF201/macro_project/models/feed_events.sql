{{ config(materialized='incremental') }}
-- The whole query comes from a project macro that decides for itself what
-- an incremental run reads: read as SQL, it keeps only rows newer than the
-- newest the model holds (a strict watermark), so a re-run inserts nothing
-- twice.
{{ union_feeds(['web_events', 'app_events']) }}

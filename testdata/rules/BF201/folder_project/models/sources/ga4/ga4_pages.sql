-- Its own config() overrides the folder: a table, rebuilt whole.
{{ config(materialized='table') }}
select page, count(*) as views from raw.ga4_events group by page

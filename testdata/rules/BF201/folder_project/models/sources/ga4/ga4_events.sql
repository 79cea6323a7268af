-- Incremental by folder config alone, with no key and no filter: every run
-- appends the whole source again.
select event_id, event_ts from raw.ga4_events  -- want BF201 "dbt model \"model.web.ga4_events\" \\(configured outside the file, in dbt_project.yml or a properties file\\) is incremental with the adapter's default incremental strategy and no unique_key.*or insert_overwrite where it replaces only the partitions written \\(BigQuery, Spark, Databricks; on Snowflake it replaces the whole table\\)"

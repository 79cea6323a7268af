-- Adapter keys (Snowflake, Databricks, BigQuery) and a custom key far from
-- every known one: nothing to report.
{{ config(materialized='incremental', unique_key='id', transient=false, tblproperties={'a': 'b'},
          require_partition_filter=true, file_format='delta', cost_centre='finance') }}
select id, amount from {{ ref('stg_payments') }}

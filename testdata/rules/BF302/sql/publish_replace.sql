CREATE OR REPLACE TABLE analytics.fct_orders AS  -- want BF302 "CREATE OR REPLACE replaces the whole of the target \"analytics.fct_orders\""
SELECT * FROM backfill_staging.fct_orders__bf20260826_b;

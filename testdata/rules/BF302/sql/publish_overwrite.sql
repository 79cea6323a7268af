-- The whole table is overwritten with the staged range: every other
-- partition of the target is gone.
INSERT OVERWRITE INTO analytics.fct_orders  -- want BF302 "INSERT OVERWRITE without PARTITION replaces every partition of the target \"analytics.fct_orders\""
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

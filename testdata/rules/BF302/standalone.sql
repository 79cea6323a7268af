-- Standalone SQL has no target: whole-table rewrites of anything that is
-- not staging (or temporary) are reported at the written relation.
TRUNCATE TABLE analytics.fct_orders;  -- want BF302 "TRUNCATE empties the whole of \"analytics.fct_orders\", which is not staging: the partitions outside the range are deleted too"

DROP TABLE IF EXISTS analytics.fct_orders_old, backfill_staging.fct_orders__bf20260826_a;  -- want BF302 "DROP removes \"analytics.fct_orders_old\""

CREATE OR REPLACE TABLE analytics.fct_orders AS  -- want BF302 "CREATE OR REPLACE replaces the whole of \"analytics.fct_orders\""
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

INSERT OVERWRITE analytics.fct_orders  -- want BF302 "INSERT OVERWRITE without PARTITION replaces every partition of \"analytics.fct_orders\""
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

-- Partition-scoped forms replace only the partitions they name.
INSERT OVERWRITE TABLE analytics.fct_orders PARTITION (order_date)
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

TRUNCATE TABLE analytics.fct_orders PARTITION (order_date = '2026-01-14');

CREATE OR REPLACE TEMP TABLE changed_orders AS
SELECT order_id FROM backfill_staging.fct_orders__bf20260826_a;

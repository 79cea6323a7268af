BEGIN;
DELETE FROM analytics.fct_orders  -- want BF504 "the build writes the target \"analytics.fct_orders\" \\(DELETE\\): readers see the recompute before it is validated.*; build into the staging relation \"backfill_staging.fct_orders__bf20260826_a\" and publish from there"
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
INSERT INTO analytics.fct_orders  -- want BF504 "the build writes the target \"analytics.fct_orders\" \\(INSERT\\)"
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
COMMIT;

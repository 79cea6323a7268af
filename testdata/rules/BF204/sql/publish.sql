DELETE FROM analytics.fct_orders  -- want BF204 "are not in one transaction"
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
INSERT INTO analytics.fct_orders  -- related BF204 "refills"
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

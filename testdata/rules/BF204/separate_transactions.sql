-- Two transactions are two commits.
BEGIN;
DELETE FROM analytics.fct_orders WHERE order_date = '2026-01-14';  -- want BF204 "are not in one transaction"
COMMIT;
BEGIN;
INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders__bf20260826_a WHERE order_date = '2026-01-14';  -- related BF204 "refills"
COMMIT;

-- Only the DELETE is inside the transaction.
START TRANSACTION;
DELETE FROM analytics.fct_orders WHERE order_date = '2026-01-15';  -- want BF204
COMMIT;
COPY INTO analytics.fct_orders FROM @backfill_stage/fct_orders/2026-01-15/;  -- related BF204 "refills"

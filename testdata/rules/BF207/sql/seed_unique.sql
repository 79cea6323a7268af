-- 2. The merge's precondition. If this returns a row, stop: the MERGE below
-- is not idempotent against a key that is not unique.
SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20260826_a
GROUP BY order_id
HAVING COUNT(*) > 1;

-- Precondition of the MERGE in publish.sql: order_id must identify one row
-- of the staged range. Any row returned stops the backfill, because a merge
-- on a key that is not unique fails on BigQuery ("UPDATE/MERGE must match at
-- most one source row for each target row") or, for new keys, inserts twice.
SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20260803_a
GROUP BY order_id
HAVING COUNT(*) > 1;

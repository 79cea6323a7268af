-- Precondition of the merge in publish.sql: order_id must identify one row of
-- the staged range. Any row returned here stops the backfill, because a merge
-- on a key that is not unique is not idempotent.
SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20261116_a
GROUP BY order_id
HAVING COUNT(*) > 1;

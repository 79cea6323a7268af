-- The merge's precondition: returns a row for every repeated order_id.
SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20260826_a
GROUP BY order_id
HAVING COUNT(*) > 1;

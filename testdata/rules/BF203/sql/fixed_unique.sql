SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20260826_b
GROUP BY order_id
HAVING COUNT(*) > 1;

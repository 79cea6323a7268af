-- Lists every key with its count: it returns rows whether or not a key repeats.
SELECT order_id, COUNT(*) AS n  -- want BF202 "groups by the key but its HAVING is not COUNT\\(\\*\\) > 1"
FROM backfill_staging.fct_orders__bf20260826_k
GROUP BY order_id
HAVING COUNT(*) > 0;

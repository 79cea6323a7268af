-- A number, not the duplicated keys.
SELECT COUNT(*) - COUNT(DISTINCT order_id) AS dupes  -- want BF202 "has no GROUP BY the key with HAVING COUNT\\(\\*\\) > 1"
FROM backfill_staging.fct_orders__bf20260826_l;

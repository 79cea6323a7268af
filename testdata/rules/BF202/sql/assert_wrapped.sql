-- Counting the duplicated keys of a composite key, written in another case
-- and order: still exactly the key.
SELECT COUNT(*) AS duplicated_keys
FROM (
  SELECT Line_No, ORDER_ID
  FROM backfill_staging.fct_order_lines__bf20260826_m
  GROUP BY ORDER_ID, Line_No
  HAVING COUNT(1) >= 2
) d;

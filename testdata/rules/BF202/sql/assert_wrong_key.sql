SELECT order_id, COUNT(*) AS n  -- want BF202 "the uniqueness check for rerun.key \\(\"order_id\", \"line_no\"\\) groups by \\(\"order_id\"\\), not by the key"
FROM backfill_staging.fct_order_lines__bf20260826_j
GROUP BY order_id
HAVING COUNT(*) > 1;

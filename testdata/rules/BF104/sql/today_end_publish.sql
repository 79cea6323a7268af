DELETE FROM analytics.fct_orders
WHERE order_date >= DATE '2026-11-01'
  AND order_date <= DATE '2026-11-28';  -- want BF104 "ends the SQL's range at 2026-11-28, not at range.end 2026-11-30: .*; write order_date <= DATE '2026-11-29', the end BF102 advises for range.end .2026-11-30 reaches"
INSERT INTO analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20261130_a;

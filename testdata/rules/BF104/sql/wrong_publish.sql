INSERT INTO analytics.fct_orders
REPLACE WHERE order_date > DATE '2026-01-14'  -- want BF104 "the bound \"order_date\" > '2026-01-14' starts the SQL's range after 2026-01-14, not at range.start 2026-01-14: .*; write order_date >= DATE '2026-01-14'"
  AND order_date <= DATE '2026-07-01'  -- want BF104 "ends the SQL's range at 2026-07-01, not at range.end 2026-06-30: .*; write order_date <= DATE '2026-06-30'"
SELECT * FROM backfill_staging.fct_orders__bf20260826_d;

CREATE TABLE backfill_rollback.fct_orders__bf20260826_d AS
SELECT * FROM analytics.fct_orders
WHERE order_date = '2026-03-01';  -- want BF104 "holds the SQL to 2026-03-01 alone, not to the range 2026-01-14..2026-06-30: .*; write order_date >= '2026-01-14' AND order_date < '2026-07-01'"

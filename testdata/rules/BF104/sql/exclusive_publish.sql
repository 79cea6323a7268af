INSERT INTO analytics.fct_orders
REPLACE WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
SELECT * FROM backfill_staging.fct_orders__bf20260826_c;

CREATE TABLE backfill_rollback.fct_orders__bf20260826_c AS
SELECT * FROM analytics.fct_orders
WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';

-- Staging has no readers; a DELETE of another relation, or an INSERT that
-- comes first, is no replace.
DELETE FROM backfill_staging.fct_orders__bf20260826_a WHERE order_date = '2026-01-14';
INSERT INTO backfill_staging.fct_orders__bf20260826_a SELECT * FROM raw.orders_events WHERE order_date = '2026-01-14';

DELETE FROM analytics.fct_orders_archive WHERE order_date < '2024-01-01';
INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

INSERT INTO analytics.fct_refunds SELECT * FROM backfill_staging.fct_refunds__bf20260826_a;
DELETE FROM analytics.fct_refunds WHERE amount_minor = 0;

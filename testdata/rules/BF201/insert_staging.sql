-- Filling staging is free to repeat: nobody reads it, and the build
-- recreates it before the next run.
INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT order_id, order_date, amount_minor
FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO analytics_staging.fct_orders SELECT * FROM raw.orders_events;
INSERT INTO staging_shop.fct_orders SELECT * FROM raw.orders_events;

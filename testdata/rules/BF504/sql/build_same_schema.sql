CREATE TABLE analytics.fct_orders__bf20260826_d_keys AS
SELECT DISTINCT order_id FROM raw.orders_events;
INSERT INTO analytics.fct_orders__bf20260826_d
SELECT * FROM raw.orders_events WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
INSERT INTO analytics.order_keys  -- want BF504 "the build writes \"analytics.order_keys\" \\(INSERT\\), which is not staging"
SELECT order_id FROM analytics.fct_orders__bf20260826_d_keys;

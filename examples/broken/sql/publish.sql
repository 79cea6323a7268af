-- Run after every day's build: replaces each target day that has been
-- recomputed so far. Consumers read a mix of old and new days until the last
-- one lands, and if the run stops halfway nobody knows which days changed.
BEGIN;

DELETE FROM analytics.fct_orders
WHERE order_date IN (SELECT DISTINCT order_date FROM analytics.fct_orders_new);

INSERT INTO analytics.fct_orders
    (order_id, customer_id, order_date, order_ts, country,
     amount_minor, is_refunded, net_amount_minor)
SELECT
    order_id, customer_id, order_date, order_ts, country,
    amount_minor, is_refunded, net_amount_minor
FROM analytics.fct_orders_new;

COMMIT;

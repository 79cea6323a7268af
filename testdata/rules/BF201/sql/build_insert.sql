CREATE TABLE scratch.fct_orders__bf20260826_f (order_id bigint, order_date date, amount_minor bigint);

INSERT INTO scratch.fct_orders__bf20260826_f
SELECT order_id, order_date, amount_minor
FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- Recompute into a table next to the target. Each run adds rows: a day that
-- is re-run after a failure is staged twice.
CREATE TABLE IF NOT EXISTS analytics.fct_orders_new (
    order_id bigint,
    customer_id bigint,
    order_date date,
    order_ts timestamp,
    country text,
    amount_minor bigint,
    is_refunded boolean,
    net_amount_minor bigint
);

INSERT INTO analytics.fct_orders_new
    (order_id, customer_id, order_date, order_ts, country,
     amount_minor, is_refunded, net_amount_minor)
SELECT
    r.order_id,
    r.customer_id,
    r.order_date,
    r.order_ts,
    d.country,
    r.amount_minor,
    r.is_refunded,
    CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
    ON d.customer_id = r.customer_id
   AND r.order_ts >= d.valid_from
   AND r.order_ts < COALESCE(d.valid_to, TIMESTAMP '9999-12-31 00:00:00')
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-11-30';

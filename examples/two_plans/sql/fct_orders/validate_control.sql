-- Control period 2025-10-01..2025-12-31: before the faulty deploy, so the
-- corrected logic has to reproduce what the target already holds there. The
-- same build is staged for the control period next to this run's staging
-- table, then compared row by row with the target. Passes when
-- changed_rows = 0.
DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20261116_a_control;

CREATE TABLE backfill_staging.fct_orders__bf20261116_a_control AS
SELECT
    r.order_id,
    r.customer_id,
    r.order_date,
    r.order_ts,
    d.country,
    r.amount_minor,
    r.is_refunded,
    CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END AS net_amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
    ON d.customer_id = r.customer_id
   AND r.order_ts >= d.valid_from
   AND r.order_ts < COALESCE(d.valid_to, TIMESTAMP '9999-12-31 00:00:00')
WHERE r.order_date BETWEEN DATE '2025-10-01' AND DATE '2025-12-31';

SELECT COUNT(*) AS changed_rows
FROM backfill_staging.fct_orders__bf20261116_a_control AS c
FULL OUTER JOIN (
    SELECT order_id, customer_id, order_date, order_ts, country,
           amount_minor, is_refunded, net_amount_minor
    FROM analytics.fct_orders
    WHERE order_date BETWEEN DATE '2025-10-01' AND DATE '2025-12-31'
) AS t
    ON t.order_id = c.order_id
WHERE c.order_id IS NULL
   OR t.order_id IS NULL
   OR (c.customer_id, c.order_date, c.order_ts, c.country,
       c.amount_minor, c.is_refunded, c.net_amount_minor)
      IS DISTINCT FROM
      (t.customer_id, t.order_date, t.order_ts, t.country,
       t.amount_minor, t.is_refunded, t.net_amount_minor);

-- Recompute 2026-01-14..2026-06-30 into this run's staging table, which no
-- consumer reads. The range is written as literals: the current partition
-- belongs to the scheduled pipeline and is never part of a backfill.
DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20261116_a;

CREATE TABLE backfill_staging.fct_orders__bf20261116_a AS
SELECT
    r.order_id,
    r.customer_id,
    r.order_date,
    r.order_ts,
    d.country,                                -- the customer's country when the order was placed
    r.amount_minor,
    r.is_refunded,
    CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END AS net_amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
    ON d.customer_id = r.customer_id
   AND r.order_ts >= d.valid_from
   -- the current version has no end yet: keep it
   AND r.order_ts < COALESCE(d.valid_to, TIMESTAMP '9999-12-31 00:00:00')
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- Taken right before publish: the range exactly as consumers see it now. This
-- copy is the rollback; it is kept until 2027-12-31, well past the monthly
-- reporting cycle in which a wrong number would be noticed.
CREATE TABLE backfill_rollback.fct_orders__pre_bf20261116_a AS
SELECT
    order_id,
    customer_id,
    order_date,
    order_ts,
    country,
    amount_minor,
    is_refunded,
    net_amount_minor
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

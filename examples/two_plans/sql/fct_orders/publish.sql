-- Publish the whole range in one statement: consumers see the old numbers up
-- to the commit and the corrected ones after it, never a mix. Running it a
-- second time changes nothing (merge on order_id, checked unique by
-- assert_unique.sql). The source is bounded to the range, so a staged key
-- outside it could never be inserted and widen the correction.
MERGE INTO analytics.fct_orders AS t
USING (
    SELECT order_id, customer_id, order_date, order_ts, country,
           amount_minor, is_refunded, net_amount_minor
    FROM backfill_staging.fct_orders__bf20261116_a
    WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
) AS s
    ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET
    country = s.country,
    amount_minor = s.amount_minor,
    is_refunded = s.is_refunded,
    net_amount_minor = s.net_amount_minor
WHEN NOT MATCHED THEN INSERT
    (order_id, customer_id, order_date, order_ts, country,
     amount_minor, is_refunded, net_amount_minor)
VALUES
    (s.order_id, s.customer_id, s.order_date, s.order_ts, s.country,
     s.amount_minor, s.is_refunded, s.net_amount_minor);

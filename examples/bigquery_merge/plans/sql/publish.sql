-- Publish the whole range in one statement: a BigQuery DML statement is
-- atomic, so readers see the old days up to its commit and the corrected
-- ones after it, never a mix. Running it a second time changes nothing
-- (a merge on order_id, checked unique by assert_unique.sql). The source is
-- bounded to the range, so a staged key outside it could never be inserted
-- and widen the correction; the same bound on the target in ON lets
-- BigQuery read only the range's partitions of fct_orders (an order keeps
-- its order_date, so no key is matched in one and missed in the other).
MERGE analytics.fct_orders AS t
USING (
    SELECT order_id, customer_id, order_date, order_ts, currency,
           amount_minor, discount_minor, net_amount_minor
    FROM backfill_staging.fct_orders__bf20260803_a
    WHERE order_date BETWEEN DATE '2026-08-03' AND DATE '2026-09-20'
) AS s
    ON t.order_id = s.order_id
   AND t.order_date BETWEEN DATE '2026-08-03' AND DATE '2026-09-20'
WHEN MATCHED THEN UPDATE SET
    customer_id = s.customer_id,
    order_ts = s.order_ts,
    currency = s.currency,
    amount_minor = s.amount_minor,
    discount_minor = s.discount_minor,
    net_amount_minor = s.net_amount_minor
WHEN NOT MATCHED THEN INSERT
    (order_id, customer_id, order_date, order_ts, currency,
     amount_minor, discount_minor, net_amount_minor)
VALUES
    (s.order_id, s.customer_id, s.order_date, s.order_ts, s.currency,
     s.amount_minor, s.discount_minor, s.net_amount_minor);

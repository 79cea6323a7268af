-- Publish the whole range in one statement, merged on the order day. The
-- source is bounded to the range, so no staged day outside it can be
-- inserted.
MERGE INTO analytics.revenue_daily AS t
USING (
    SELECT order_date, order_count, net_revenue_minor
    FROM backfill_staging.revenue_daily__bf20261116_b
    WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
) AS s
    ON t.order_date = s.order_date
WHEN MATCHED THEN UPDATE SET
    order_count = s.order_count,
    net_revenue_minor = s.net_revenue_minor
WHEN NOT MATCHED THEN INSERT
    (order_date, order_count, net_revenue_minor)
VALUES
    (s.order_date, s.order_count, s.net_revenue_minor);

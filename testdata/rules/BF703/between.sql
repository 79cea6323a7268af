-- The seed's build with BETWEEN: an order placed at the instant the customer
-- moved matches the old and the new version, and is staged twice.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, r.order_date, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF703:warning "join to type-2 dimension \"dim.customer_snapshot\" \\(alias \"d\"\\) closes the validity interval with BETWEEN d.valid_from AND d.valid_to: a row at the instant one version ends and the next begins matches both"
  ON d.customer_id = r.customer_id
  AND r.order_ts BETWEEN d.valid_from AND d.valid_to
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, r.order_date, s.segment, r.amount_minor
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s  -- want BF704 "current versions have NULL s.dbt_valid_to"
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND r.order_ts < s.dbt_valid_to
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

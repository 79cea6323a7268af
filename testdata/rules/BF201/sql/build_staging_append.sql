INSERT INTO backfill_staging.fct_orders__bf20260901_s  -- want BF201 "INSERT into staging \"backfill_staging.fct_orders__bf20260901_s\" appends, and nothing in the build empties it first"
SELECT order_id, order_date, amount_minor
FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

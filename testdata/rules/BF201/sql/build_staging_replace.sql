-- The staged range is deleted before it is inserted again: a re-run
-- replaces it.
DELETE FROM backfill_staging.fct_orders__bf20260901_t
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO backfill_staging.fct_orders__bf20260901_t
SELECT order_id, order_date, amount_minor
FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

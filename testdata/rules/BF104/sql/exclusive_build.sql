INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT * FROM raw.orders_events
WHERE order_date >= '2026-01-14' AND order_date < '2026-07-01';

INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT * FROM raw.refunds_events
WHERE order_date >= TIMESTAMP '2026-01-14 00:00:00'
  AND order_date < TIMESTAMP '2026-07-01 00:00:00';

INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT * FROM raw.adjustments
WHERE order_date > '2026-01-13'::date
  AND order_date <= '2026-06-30 23:59:59.999';

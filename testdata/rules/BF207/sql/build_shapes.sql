CREATE TABLE backfill_staging.fct_orders__bf20260826_c AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT r.order_id, CAST(r.order_ts AS date)::date, r.amount_minor, r.order_date::date
FROM raw.orders_events AS r;

INSERT INTO backfill_staging.fct_orders__bf20260826_c (order_id, order_ts, amount_minor)  -- want BF207 "the build fills \"backfill_staging.fct_orders__bf20260826_c\" without \"order_date\""
SELECT order_id, order_ts, amount_minor FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT order_id, date(order_ts), amount_minor FROM raw.late_orders  -- want -1 BF207 "without \"order_date\""
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- A temporary table is not the staging relation.
CREATE TEMPORARY TABLE ids AS SELECT order_id FROM raw.orders_events;

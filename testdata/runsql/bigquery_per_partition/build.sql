-- Written by bflint init for analytics.fct_orders (bigquery).
-- The table's query once per partition, its date parameter bound as
-- bqetl binds it, into staging; the first statement recreates staging,
-- so a re-run replaces what the last one built.
-- The range is 2026-01-14..2026-01-15 (day), bounded by literal partitions, the one
-- after its last exclusive.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor
    FROM raw.orders_events
    WHERE order_date = DATE '2026-01-14'
) AS query
WHERE query.order_date >= DATE '2026-01-14' AND query.order_date < DATE '2026-01-15';

INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor
    FROM raw.orders_events
    WHERE order_date = DATE '2026-01-15'
) AS query
WHERE query.order_date >= DATE '2026-01-15' AND query.order_date < DATE '2026-01-16';

-- The control period, 2026-01-12..2026-01-13, recomputed the same way for the
-- control check to compare with the target.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a_control AS
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor
    FROM raw.orders_events
    WHERE order_date = DATE '2026-01-12'
) AS query
WHERE query.order_date >= DATE '2026-01-12' AND query.order_date < DATE '2026-01-13';

INSERT INTO backfill_staging.fct_orders__bf20260826_a_control
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor
    FROM raw.orders_events
    WHERE order_date = DATE '2026-01-13'
) AS query
WHERE query.order_date >= DATE '2026-01-13' AND query.order_date < DATE '2026-01-14';

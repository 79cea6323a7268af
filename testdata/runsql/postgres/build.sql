-- Written by bflint init for analytics.fct_orders (postgres).
-- The model's query, as a full run executes it, recomputed for the
-- range into staging; check it against the compiled model.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20260826_a;

CREATE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor,
           CASE WHEN is_refunded THEN 0 ELSE amount_minor END AS net_amount_minor
    FROM raw.orders_events
) AS query
WHERE query.order_date >= DATE '2026-01-14' AND query.order_date < DATE '2026-07-01';

-- The control period, 2026-01-07..2026-01-13, recomputed the same way for the
-- control check to compare with the target.
DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20260826_a_control;

CREATE TABLE backfill_staging.fct_orders__bf20260826_a_control AS
SELECT *
FROM (
    SELECT order_id, order_date, amount_minor,
           CASE WHEN is_refunded THEN 0 ELSE amount_minor END AS net_amount_minor
    FROM raw.orders_events
) AS query
WHERE query.order_date >= DATE '2026-01-07' AND query.order_date < DATE '2026-01-14';

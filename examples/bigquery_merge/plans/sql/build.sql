-- Recompute 2026-08-03..2026-09-20 into this run's staging table, in a
-- dataset no consumer is granted. This is fct_orders' own query as
-- `dbt compile --select fct_orders --vars '{"start_date": "2026-08-03",
-- "end_date": "2026-09-20"}'` renders it, with the range as literals: the
-- current partition belongs to the scheduled run and is never part of it.
-- CREATE OR REPLACE makes a second run start from nothing.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260803_a
PARTITION BY order_date
CLUSTER BY order_id
AS
SELECT
    order_id,
    customer_id,
    order_date,
    order_ts,
    currency,
    amount_minor,
    discount_minor,
    amount_minor - discount_minor AS net_amount_minor
FROM analytics.stg_orders
WHERE order_date BETWEEN DATE '2026-08-03' AND DATE '2026-09-20';

-- Taken right before publish: the range exactly as readers see it now.
-- BigQuery's time travel reaches back seven days at most, less than the
-- monthly reporting cycle in which a wrong number would be noticed, so the
-- rollback is this copy. It expires when the plan says it may go
-- (retained_until 2027-12-31, to the end of that day in UTC). CREATE TABLE,
-- not CREATE OR REPLACE: a second capture after the publish fails instead of
-- overwriting the pre-publish copy with corrected rows.
CREATE TABLE backfill_rollback.fct_orders__pre_bf20260803_a
PARTITION BY order_date
OPTIONS (expiration_timestamp = TIMESTAMP '2028-01-01 00:00:00 UTC')
AS
SELECT
    order_id,
    customer_id,
    order_date,
    order_ts,
    currency,
    amount_minor,
    discount_minor,
    net_amount_minor
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-08-03' AND DATE '2026-09-20';

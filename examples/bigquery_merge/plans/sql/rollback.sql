-- Undo the publish: put the range back exactly as capture.sql found it. The
-- delete and the insert commit together in one BigQuery transaction, so
-- readers never see the range empty; rows the merge inserted go with the
-- rest of the range. Exercised on the trial partition before the full run.
BEGIN TRANSACTION;

DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-08-03' AND DATE '2026-09-20';

INSERT INTO analytics.fct_orders
    (order_id, customer_id, order_date, order_ts, currency,
     amount_minor, discount_minor, net_amount_minor)
SELECT
    order_id, customer_id, order_date, order_ts, currency,
    amount_minor, discount_minor, net_amount_minor
FROM backfill_rollback.fct_orders__pre_bf20260803_a;

COMMIT TRANSACTION;

-- Undo the publish: put the range back exactly as capture.sql found it. The
-- delete and the re-insert commit together, so readers never see the range
-- empty. Rows the merge inserted are removed with the rest of the range.
-- Exercised on the trial partition 2026-03-01 before the full run.
BEGIN;

DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO analytics.fct_orders
    (order_id, customer_id, order_date, order_ts, country,
     amount_minor, is_refunded, net_amount_minor)
SELECT
    order_id, customer_id, order_date, order_ts, country,
    amount_minor, is_refunded, net_amount_minor
FROM backfill_rollback.fct_orders__pre_bf20261116_a;

COMMIT;

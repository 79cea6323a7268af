-- DO NOTHING never changes a row that is already there.
INSERT INTO analytics.fct_orders (order_id, order_date, amount_minor)
SELECT order_id, order_date, amount_minor FROM backfill_staging.fct_orders__bf20260826_h
ON CONFLICT (order_id) DO NOTHING;

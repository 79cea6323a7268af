-- An upsert converges on re-run; DO NOTHING skips rows already there.
INSERT INTO analytics.fct_orders (order_id, order_date, amount_minor)
SELECT order_id, order_date, amount_minor FROM backfill_staging.fct_orders__bf20260826_a
ON CONFLICT (order_id) DO UPDATE SET amount_minor = EXCLUDED.amount_minor;

INSERT INTO analytics.fct_orders (order_id, order_date, amount_minor)
SELECT order_id, order_date, amount_minor FROM backfill_staging.fct_orders__bf20260826_a
ON CONFLICT DO NOTHING;

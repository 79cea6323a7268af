-- The upsert converges only if order_id is unique in staging.
INSERT INTO analytics.fct_orders (order_id, order_date, amount_minor)  -- want BF202 "INSERT ... ON CONFLICT DO UPDATE into \"analytics.fct_orders\" with no rerun.uniqueness_check in the plan"
SELECT order_id, order_date, amount_minor FROM backfill_staging.fct_orders__bf20260826_g
ON CONFLICT (order_id) DO UPDATE SET amount_minor = EXCLUDED.amount_minor;

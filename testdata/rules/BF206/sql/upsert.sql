INSERT INTO analytics.fct_orders (order_id, line_no, amount_minor)  -- want BF206 "INSERT ... ON CONFLICT into \"analytics.fct_orders\" matches rows on \\(\"order_id\", \"line_no\"\\), but rerun.key is \\(\"order_id\"\\)"
SELECT order_id, line_no, amount_minor FROM backfill_staging.fct_orders__bf20260826_c
ON CONFLICT (order_id, line_no) DO UPDATE SET amount_minor = EXCLUDED.amount_minor;

INSERT INTO analytics.fct_orders
SELECT * FROM backfill_rollback.fct_orders__pre_bf20260826_g;

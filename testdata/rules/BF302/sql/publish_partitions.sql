INSERT OVERWRITE TABLE analytics.fct_orders PARTITION (order_date)
SELECT * FROM backfill_staging.fct_orders__bf20260826_c;
DROP TABLE IF EXISTS scratch.fct_orders_diff;

CREATE OR REPLACE TABLE analytics.fct_orders CLONE backfill_rollback.fct_orders__bf20260826_c;

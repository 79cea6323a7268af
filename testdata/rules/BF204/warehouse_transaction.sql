-- Snowflake and BigQuery scripts spell the transaction out.
BEGIN TRANSACTION;
DELETE FROM analytics.fct_orders WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';
INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
COMMIT TRANSACTION;

BEGIN WORK;
DELETE FROM `shop-prod.analytics.fct_orders` WHERE order_date = '2026-01-14';
INSERT INTO `shop-prod.analytics.fct_orders` SELECT * FROM `shop-prod.backfill_staging.fct_orders__bf20260826_a`;
COMMIT WORK;

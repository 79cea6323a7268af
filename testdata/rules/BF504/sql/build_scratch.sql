CREATE TEMP TABLE changed_customers AS
SELECT DISTINCT customer_id FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

CREATE TABLE analytics.changed_customers_bf20260826_b AS  -- want BF504 "the build writes \"analytics.changed_customers_bf20260826_b\" \\(CREATE TABLE AS\\), which is not staging: .*; write it into the staging relation \"backfill_staging.fct_orders__bf20260826_b\" or its schema, or make it a TEMPORARY table"
SELECT * FROM changed_customers;

DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20260826_b;
CREATE TABLE backfill_staging.fct_orders__bf20260826_b AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
UPDATE backfill_staging.scratch_b SET flagged = true;

TRUNCATE TABLE dim.customer_snapshot;  -- want BF504 "the build writes \"dim.customer_snapshot\" \\(TRUNCATE\\), which is not staging"

CREATE TABLE IF NOT EXISTS main.web.daily_clicks (
  page_id BIGINT NOT NULL COMMENT 'page surrogate key',
  clicks BIGINT,
  users BIGINT,
  tags ARRAY<STRING>,
  attrs MAP<STRING, STRING>,
  event_ts TIMESTAMP,
  event_date DATE GENERATED ALWAYS AS (CAST(event_ts AS DATE))
)
USING DELTA
PARTITIONED BY (event_date)
COMMENT 'clicks per page and day'
TBLPROPERTIES ('delta.autoOptimize.optimizeWrite' = 'true');

CREATE OR REPLACE TABLE main.sales_staging.orders_fix
USING DELTA
CLUSTER BY (order_date, customer_id)
LOCATION 's3://acme-lake/staging/orders_fix'
AS
SELECT *, current_timestamp() AS fixed_at
FROM main.sales.fct_orders VERSION AS OF 412
WHERE order_date >= '2024-02-01' AND order_date < '2024-02-04';

CREATE TABLE main.sales_backup.fct_orders_20240204 DEEP CLONE main.sales.fct_orders;

CREATE TABLE main.sales_staging.orders_shape LIKE main.sales.fct_orders;

CREATE OR REPLACE TEMPORARY VIEW orders_fix_v AS
SELECT * FROM main.sales_staging.orders_fix WHERE amount > 0;

OPTIMIZE main.sales.fct_orders
WHERE order_date >= '2024-02-01' AND order_date < '2024-02-04'
ZORDER BY (customer_id);

VACUUM main.sales.fct_orders RETAIN 168 HOURS;

ANALYZE TABLE main.sales.fct_orders COMPUTE STATISTICS FOR ALL COLUMNS;

DROP TABLE IF EXISTS main.sales_staging.orders_shape PURGE;

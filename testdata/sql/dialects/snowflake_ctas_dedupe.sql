-- Rebuild one week of orders into a transient staging table, keeping the
-- latest version of each order line.
USE WAREHOUSE backfill_xl;
USE SCHEMA analytics.backfill_staging;
ALTER SESSION SET QUERY_TAG = 'orders-backfill-2024w03';

SET start_date = '2024-01-15';
SET end_date = '2024-01-21';

CREATE OR REPLACE TRANSIENT TABLE backfill_staging.orders_2024w03
  CLUSTER BY (order_date)
  DATA_RETENTION_TIME_IN_DAYS = 0
  COPY GRANTS
AS
SELECT
    o.* EXCLUDE (_ingested_at, _file_name),
    TRY_CAST(o.amount_raw AS NUMBER(18, 2)) AS amount,
    IFF(o.status = 'X', 'cancelled', o.status) AS status_clean,
    TRY_TO_DATE(o.order_day, 'YYYY-MM-DD') AS order_date
FROM raw.shop.orders AS o
WHERE o.order_day BETWEEN $start_date AND $end_date
QUALIFY ROW_NUMBER() OVER (PARTITION BY o.order_id, o.line_no ORDER BY o._ingested_at DESC) = 1;

-- The same dedupe inside a subquery, with ORDER BY after QUALIFY.
CREATE OR REPLACE TEMPORARY TABLE backfill_staging.latest_customers AS
SELECT c.customer_id, c.segment, c.updated_at
FROM (
    SELECT *
    FROM raw.crm.customers
    WHERE updated_at < DATEADD(day, 1, $end_date::date)
    QUALIFY RANK() OVER (PARTITION BY customer_id ORDER BY updated_at DESC) = 1
) AS c
ORDER BY c.customer_id;

SELECT COUNT(*) AS dup_lines
FROM backfill_staging.orders_2024w03
GROUP BY ALL
HAVING COUNT(*) > 1;

SELECT order_id, line_no, COUNT(*) AS n
FROM backfill_staging.orders_2024w03
GROUP BY order_id, line_no
HAVING COUNT(*) > 1
MINUS
SELECT order_id, line_no, COUNT(*) AS n
FROM analytics.core.known_duplicate_lines
GROUP BY order_id, line_no
HAVING COUNT(*) > 1;

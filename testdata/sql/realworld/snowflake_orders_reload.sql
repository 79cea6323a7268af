-- Reload January orders from the export files after the vendor resent
-- them, with a zero-copy clone of the table as the rollback point.
ALTER SESSION SET QUERY_TAG = 'orders-reload-2024-01', TIMEZONE = 'UTC';

CREATE OR REPLACE TABLE backups.orders_before_reload_20240205
  CLONE analytics.core.orders AT (TIMESTAMP => '2024-02-05 06:00:00'::timestamp_ltz);

CREATE SCHEMA IF NOT EXISTS backups.core_20240205 CLONE analytics.core;

CREATE OR REPLACE TRANSIENT TABLE staging.orders_files_202401 (
    order_id      NUMBER(38, 0),
    customer_id   NUMBER(38, 0),
    order_ts      TIMESTAMP_NTZ,
    status        VARCHAR(20),
    amount        NUMBER(12, 2),
    attrs         VARIANT,
    source_file   VARCHAR,
    loaded_at     TIMESTAMP_LTZ DEFAULT CURRENT_TIMESTAMP()
);

COPY INTO staging.orders_files_202401 (order_id, customer_id, order_ts, status, amount, attrs, source_file)
FROM (
    SELECT
        $1:order_id::number,
        $1:customer:id::number,
        TRY_TO_TIMESTAMP_NTZ($1:created_at::string),
        UPPER($1:status::string),
        TRY_TO_NUMBER($1:total::string, 12, 2),
        $1:attributes,
        METADATA$FILENAME
    FROM @raw.vendor_exports/orders/2024/01/
)
FILE_FORMAT = (TYPE = 'JSON' STRIP_OUTER_ARRAY = TRUE)
PATTERN = '.*orders_2024-01-[0-9]{2}[.]json[.]gz'
ON_ERROR = 'ABORT_STATEMENT';

-- Files that a load skipped, straight from the stage.
SELECT
    METADATA$FILENAME AS file_name,
    COUNT(*)          AS rows_in_file,
    MIN($1:created_at::date) AS first_day
FROM @raw.vendor_exports/orders/2024/01/ (FILE_FORMAT => 'raw.json_gz', PATTERN => '.*[.]json[.]gz') AS f
GROUP BY 1
HAVING first_day < '2024-01-01';

-- Latest version of each order, without the load bookkeeping.
CREATE OR REPLACE TRANSIENT TABLE staging.orders_202401 AS
SELECT * EXCLUDE (source_file, loaded_at) RENAME amount AS amount_usd
FROM staging.orders_files_202401
WHERE order_ts >= '2024-01-01' AND order_ts < '2024-02-01'
QUALIFY ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY loaded_at DESC, source_file DESC) = 1;

SELECT order_id, COUNT(*) AS versions
FROM staging.orders_202401
GROUP BY order_id
HAVING COUNT(*) > 1;

MERGE INTO analytics.core.orders AS t
USING staging.orders_202401 AS s
  ON t.order_id = s.order_id
WHEN MATCHED AND s.status = 'DELETED' THEN DELETE
WHEN MATCHED THEN UPDATE SET
    t.customer_id = s.customer_id,
    t.order_ts    = s.order_ts,
    t.status      = s.status,
    t.amount_usd  = s.amount_usd,
    t.channel     = s.attrs:channel::string,
    t.updated_at  = CURRENT_TIMESTAMP()
WHEN NOT MATCHED AND s.status <> 'DELETED' THEN INSERT
    (order_id, customer_id, order_ts, status, amount_usd, channel, updated_at)
    VALUES (s.order_id, s.customer_id, s.order_ts, s.status, s.amount_usd, s.attrs:channel::string, CURRENT_TIMESTAMP());

-- The daily rollup is small: rebuild the month's rows wholesale.
INSERT OVERWRITE INTO analytics.marts.orders_daily_202401
SELECT
    DATE_TRUNC('day', order_ts)::date AS order_date,
    COUNT(*)                          AS orders,
    SUM(amount_usd)                   AS revenue,
    COUNT_IF(TRY_TO_BOOLEAN(attrs:is_first_order::string)) AS first_orders
FROM analytics.core.orders
WHERE order_ts >= '2024-01-01' AND order_ts < '2024-02-01'
GROUP BY 1;

-- Pivot of revenue by channel.
SELECT *
FROM (
    SELECT DATE_TRUNC('month', order_ts) AS month, channel, amount_usd
    FROM analytics.core.orders
    WHERE order_ts >= '2024-01-01' AND order_ts < '2024-02-01'
)
PIVOT (SUM(amount_usd) FOR channel IN ('web', 'app', 'store')) AS p (month, web, app, store);

DROP TABLE IF EXISTS staging.orders_files_202401;

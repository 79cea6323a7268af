-- Reload January's raw event files from the external stage.
COPY INTO raw.events.page_views (event_id, user_id, event_ts, payload)
FROM @raw.events.s3_landing/page_views/2024/01/
FILE_FORMAT = (TYPE = 'JSON' STRIP_OUTER_ARRAY = TRUE)
PATTERN = '.*page_views_2024-01-[0-9]{2}[.]json[.]gz'
ON_ERROR = 'ABORT_STATEMENT'
FORCE = TRUE;

COPY INTO raw.events.orders_landing
FROM (
    SELECT
        $1:order_id::varchar,
        $1:customer."id"::number,
        $1:lines[0].sku::varchar,
        TO_TIMESTAMP_NTZ($1:created_at::varchar),
        METADATA$FILENAME
    FROM @raw.events.s3_landing/orders/
)
FILE_FORMAT = (FORMAT_NAME = 'raw.events.json_gz')
ON_ERROR = 'CONTINUE';

-- Peek at the files before loading them.
SELECT t.$1, t.$2
FROM @raw.events.s3_landing/stores/ (FILE_FORMAT => 'raw.events.csv_header', PATTERN => '.*stores.*') t
LIMIT 10;

SELECT src:store_id::number AS store_id, src:address.city::string AS city, f.value:sku::string AS sku
FROM raw.events.store_snapshots AS s,
     LATERAL FLATTEN(input => s.src:items) AS f
WHERE s.snapshot_date = DATEADD(day, -1, CURRENT_DATE());

-- Export the corrected week for the finance team.
COPY INTO @analytics.exports.finance_stage/orders/2024w03/
FROM (
    SELECT order_id, order_date, amount
    FROM analytics.core.fct_orders
    WHERE order_date BETWEEN '2024-01-15' AND '2024-01-21'
)
FILE_FORMAT = (TYPE = 'PARQUET')
HEADER = TRUE
OVERWRITE = TRUE;

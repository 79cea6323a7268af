-- Re-extract checkout events from the raw VARIANT payloads for 2024-02,
-- one row per cart item, into a transient staging table.
USE ROLE transformer;
USE WAREHOUSE transform_l;

SET backfill_start = '2024-02-01';
SET backfill_end = '2024-02-29';
SET expected_events = (SELECT COUNT(*) FROM raw.events.checkout WHERE event_date BETWEEN $backfill_start AND $backfill_end);

CREATE OR REPLACE TRANSIENT TABLE staging.checkout_items_202402 AS
SELECT
    e.payload:event_id::string                       AS event_id,
    e.payload:user.id::number                        AS user_id,
    TRY_TO_TIMESTAMP_NTZ(e.payload:ts::string)       AS event_ts,
    item.index                                       AS item_position,
    item.value:sku::string                           AS sku,
    TRY_TO_NUMBER(item.value:qty::string)            AS quantity,
    TRY_CAST(item.value:price::string AS NUMBER(12, 2)) AS unit_price,
    IFF(item.value:gift = TRUE, 'gift', 'regular')   AS line_kind,
    e.payload['context']['locale']::string           AS locale,
    e.event_date
FROM raw.events.checkout AS e,
     LATERAL FLATTEN(input => e.payload:cart.items, outer => TRUE) AS item
WHERE e.event_date BETWEEN $backfill_start AND $backfill_end
QUALIFY ROW_NUMBER() OVER (PARTITION BY e.payload:event_id, item.index ORDER BY e.loaded_at DESC) = 1;

-- Coupons sit two levels deep; flatten recursively and keep the leaves.
CREATE OR REPLACE TEMPORARY TABLE staging.checkout_coupons_202402 AS
SELECT
    e.payload:event_id::string AS event_id,
    c.key                      AS coupon_field,
    c.value::string            AS coupon_value,
    c.path                     AS coupon_path
FROM raw.events.checkout AS e,
     TABLE(FLATTEN(input => e.payload:cart.coupons, recursive => TRUE)) AS c
WHERE e.event_date BETWEEN $backfill_start AND $backfill_end
  AND IS_OBJECT(c.value) = FALSE;

-- Referrer parameters, parsed from the query string of the landing URL.
SELECT
    s.session_id,
    p.value::string                                   AS param,
    SPLIT_PART(p.value::string, '=', 1)               AS param_name,
    TRY_TO_DECIMAL(SPLIT_PART(p.value::string, '=', 2), 10, 2) AS param_number
FROM raw.web.sessions AS s,
     LATERAL FLATTEN(input => SPLIT(PARSE_URL(s.landing_url):query::string, '&')) AS p
WHERE s.session_date BETWEEN $backfill_start AND $backfill_end;

SELECT
    COUNT(DISTINCT event_id) AS events_loaded,
    $expected_events          AS events_expected,
    IFF(COUNT(DISTINCT event_id) = $expected_events, 'ok', 'mismatch') AS verdict
FROM staging.checkout_items_202402;

-- Replace the month in the reporting table in one transaction.
BEGIN TRANSACTION;

DELETE FROM analytics.core.checkout_items
WHERE event_date BETWEEN $backfill_start AND $backfill_end;

INSERT INTO analytics.core.checkout_items
SELECT * EXCLUDE (item_position) RENAME (line_kind AS kind)
FROM staging.checkout_items_202402;

COMMIT;

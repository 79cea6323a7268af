-- Backfill of ad spend for 2024-03 from the partner's CSV drops: load the
-- files into a landing table, normalise, and merge into the fact table.
CREATE OR REPLACE TRANSIENT TABLE landing.ad_spend_202403 CLONE landing.ad_spend_template;

COPY INTO landing.ad_spend_202403 (spend_date, account_id, campaign_id, currency, spend, clicks, extra, file_name, file_row)
FROM (
    SELECT
        TRY_TO_DATE(t.$1, 'YYYY-MM-DD'),
        t.$2,
        t.$3,
        UPPER(t.$4),
        TRY_TO_DECIMAL(t.$5, 14, 4),
        TRY_TO_NUMBER(t.$6),
        TRY_PARSE_JSON(t.$7),
        METADATA$FILENAME,
        METADATA$FILE_ROW_NUMBER
    FROM @partners.ad_drops/2024/03/ t
)
FILE_FORMAT = (TYPE = CSV FIELD_OPTIONALLY_ENCLOSED_BY = '"' SKIP_HEADER = 1)
PATTERN = '.*spend_2024-03-.*[.]csv'
FORCE = TRUE;

COPY INTO landing.ad_spend_rejects
FROM @partners.ad_drops/2024/03/
FILE_FORMAT = (FORMAT_NAME = 'partners.csv_loose')
ON_ERROR = 'CONTINUE';

CREATE OR REPLACE TEMPORARY TABLE staging.ad_spend_202403 AS
SELECT
    s.* EXCLUDE (extra, file_row) RENAME (spend AS spend_local),
    s.spend * COALESCE(fx.rate, 1)                       AS spend_usd,
    s.extra:placement::string                            AS placement,
    IFF(s.extra:is_test::boolean, TRUE, FALSE)           AS is_test,
    TRY_CAST(s.extra:impressions::string AS INTEGER)     AS impressions
FROM landing.ad_spend_202403 AS s
LEFT JOIN ref.fx_daily AS fx
  ON fx.currency = s.currency AND fx.rate_date = s.spend_date
WHERE s.spend_date >= '2024-03-01' AND s.spend_date < '2024-04-01'
QUALIFY ROW_NUMBER() OVER (PARTITION BY s.spend_date, s.account_id, s.campaign_id ORDER BY s.file_name DESC) = 1;

-- Labels come as an array of key/value objects per campaign.
CREATE OR REPLACE TEMPORARY TABLE staging.campaign_labels AS
SELECT
    s.campaign_id,
    l.value:key::string   AS label_key,
    l.value:value::string AS label_value
FROM staging.ad_spend_202403 AS s,
     LATERAL FLATTEN(input => s.extra:labels) AS l
QUALIFY ROW_NUMBER() OVER (PARTITION BY s.campaign_id, l.value:key ORDER BY l.index) = 1;

MERGE INTO analytics.marketing.fct_ad_spend AS t
USING (
    SELECT * EXCLUDE is_test
    FROM staging.ad_spend_202403
    WHERE NOT is_test
) AS s
ON t.spend_date = s.spend_date AND t.account_id = s.account_id AND t.campaign_id = s.campaign_id
WHEN MATCHED THEN UPDATE SET
    spend_usd = s.spend_usd, clicks = s.clicks, impressions = s.impressions, placement = s.placement
WHEN NOT MATCHED AND s.spend_date BETWEEN '2024-03-01' AND '2024-03-31' THEN INSERT
    (spend_date, account_id, campaign_id, spend_usd, clicks, impressions, placement)
    VALUES (s.spend_date, s.account_id, s.campaign_id, s.spend_usd, s.clicks, s.impressions, s.placement);

SELECT
    spend_date,
    SUM(spend_usd) AS spend_usd,
    IFF(SUM(clicks) = 0, NULL, SUM(spend_usd) / SUM(clicks)) AS cpc
FROM analytics.marketing.fct_ad_spend
WHERE spend_date BETWEEN '2024-03-01' AND '2024-03-31'
GROUP BY spend_date
ORDER BY spend_date;

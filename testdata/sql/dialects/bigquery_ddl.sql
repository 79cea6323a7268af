CREATE TABLE IF NOT EXISTS `acme-analytics.reporting.sessions` (
  session_date DATE NOT NULL OPTIONS (description = "partition column"),
  user_id STRING NOT NULL,
  device STRING,
  duration_ms INT64,
  revenue BIGNUMERIC,
  first_seen DATETIME,
  is_bot BOOL,
  fingerprint BYTES,
  pages ARRAY<STRING>,
  geo STRUCT<country STRING, city STRING, lat FLOAT64, lon FLOAT64>,
  events ARRAY<STRUCT<name STRING, ts TIMESTAMP>>,
  PRIMARY KEY (session_date, user_id) NOT ENFORCED
)
PARTITION BY session_date
CLUSTER BY user_id
OPTIONS (require_partition_filter = TRUE, partition_expiration_days = 730);

CREATE TEMP TABLE march_users AS
SELECT DISTINCT user_id
FROM `acme-analytics.reporting.sessions`
WHERE session_date >= '2024-03-01' AND session_date < '2024-04-01';

CREATE TABLE `acme-analytics.backup.sessions_20240301` CLONE `acme-analytics.reporting.sessions`
  FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR);

CREATE SNAPSHOT TABLE `acme-analytics.backup.subscriptions_snap`
CLONE `acme-analytics.reporting.subscriptions`
OPTIONS (expiration_timestamp = TIMESTAMP '2024-06-01 00:00:00 UTC');

TRUNCATE TABLE `acme-analytics.backfill_staging.subscriptions_fix`;

CREATE OR REPLACE VIEW `acme-analytics.reporting.sessions_recent`
OPTIONS (description = "last 30 days of sessions")
AS
SELECT *
FROM `acme-analytics.reporting.sessions`
WHERE session_date >= DATE_SUB(CURRENT_DATE(), INTERVAL 30 DAY);

DELETE FROM `acme-analytics.backfill_staging.subscriptions_fix` WHERE true;

UPDATE `acme-analytics.reporting.sessions` AS s
SET device = d.canonical_device
FROM `acme-analytics.reference.device_aliases` AS d
WHERE s.device = d.alias
  AND s.session_date BETWEEN '2024-03-01' AND '2024-03-15';

SELECT
  CAST(duration_ms AS FLOAT64) / 1000 AS seconds,
  CAST(user_id AS BYTES) AS raw_id,
  CAST(first_seen AS STRING) AS seen,
  CAST(revenue AS BIGNUMERIC) AS rev,
  SAFE.PARSE_DATE('%Y%m%d', r'20240301') AS d,
  ARRAY_AGG(device IGNORE NULLS ORDER BY device LIMIT 5) AS devices
FROM `acme-analytics.reporting.sessions`
WHERE session_date = @run_date
GROUP BY 1, 2, 3, 4, 5;

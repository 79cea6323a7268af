# Rebuild daily sessions for the first half of March into a staging table,
# then replace those partitions of the reporting table in one transaction.
CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.sessions_2024_03a`
PARTITION BY session_date
CLUSTER BY user_id, device
OPTIONS (
  expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 7 DAY),
  description = "sessions backfill, 2024-03-01..2024-03-15"
)
AS
SELECT
  DATE(event_ts) AS session_date,
  user_id,
  device,
  SAFE_CAST(duration_ms AS INT64) AS duration_ms,
  CAST(revenue_micros AS NUMERIC) / 1000000 AS revenue
FROM `acme-analytics.raw.events_*`
WHERE _TABLE_SUFFIX BETWEEN '20240301' AND '20240315'
  AND event_name = "session_end"
QUALIFY ROW_NUMBER() OVER (PARTITION BY user_id, session_id ORDER BY event_ts DESC) = 1;

BEGIN TRANSACTION;

DELETE `acme-analytics.reporting.sessions`
WHERE session_date BETWEEN DATE '2024-03-01' AND DATE '2024-03-15';

INSERT `acme-analytics.reporting.sessions` (session_date, user_id, device, duration_ms, revenue)
SELECT session_date, user_id, device, duration_ms, revenue
FROM `acme-analytics.backfill_staging.sessions_2024_03a`
WHERE session_date BETWEEN DATE "2024-03-01" AND DATE "2024-03-15";

COMMIT TRANSACTION;

SELECT session_date, COUNT(*) AS sessions
FROM `acme-analytics.reporting.sessions`
WHERE session_date BETWEEN DATE_SUB(DATE '2024-03-16', INTERVAL 15 DAY) AND DATE '2024-03-15'
GROUP BY ALL
ORDER BY session_date;

DROP TABLE IF EXISTS `acme-analytics.backfill_staging.sessions_2024_03a`;

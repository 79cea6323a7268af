#standardSQL
# Backfill of daily sessions, run as one BigQuery script with the dates as
# query parameters: bq query --parameter=start:DATE:2024-05-01 ...
DECLARE run_start DATE DEFAULT @start;
DECLARE run_end DATE DEFAULT @end;
DECLARE expected_days INT64 DEFAULT DATE_DIFF(run_end, run_start, DAY) + 1;
DECLARE late_rows, loaded_rows INT64;
DECLARE partitions_to_fix ARRAY<DATE>;

SET partitions_to_fix = GENERATE_DATE_ARRAY(run_start, run_end, INTERVAL 1 DAY);
SET late_rows = (
  SELECT COUNT(*)
  FROM `acme-analytics.raw.app_events`
  WHERE DATE(event_ts) IN UNNEST(partitions_to_fix)
    AND ingested_at > TIMESTAMP(DATE_ADD(DATE(event_ts), INTERVAL 2 DAY))
);

CREATE TEMP FUNCTION session_bucket(duration_s INT64)
RETURNS STRING
AS (
  CASE
    WHEN duration_s < 10 THEN 'bounce'
    WHEN duration_s < 300 THEN 'short'
    ELSE 'engaged'
  END
);

CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.sessions_20240501`
PARTITION BY session_date
CLUSTER BY user_id
OPTIONS (expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 3 DAY))
AS
SELECT
  DATE(e.event_ts) AS session_date,
  e.user_id,
  e.session_id,
  session_bucket(TIMESTAMP_DIFF(MAX(e.event_ts), MIN(e.event_ts), SECOND)) AS bucket,
  COUNTIF(e.event_name = 'purchase') AS purchases
FROM `acme-analytics.raw.app_events` AS e
WHERE DATE(e.event_ts) BETWEEN run_start AND run_end
GROUP BY 1, 2, 3;

SET loaded_rows = (SELECT COUNT(*) FROM `acme-analytics.backfill_staging.sessions_20240501`);

ASSERT (
  SELECT COUNT(DISTINCT session_date)
  FROM `acme-analytics.backfill_staging.sessions_20240501`
) = expected_days AS 'every day of the range has sessions in staging';

IF loaded_rows = 0 THEN
  RAISE USING MESSAGE = FORMAT('no sessions between %t and %t', run_start, run_end);
ELSEIF late_rows > 1000 THEN
  SELECT FORMAT('%d late events will shift sessions', late_rows) AS warning;
END IF;

BEGIN
  BEGIN TRANSACTION;

  DELETE FROM `acme-analytics.reporting.sessions`
  WHERE session_date BETWEEN run_start AND run_end;

  INSERT INTO `acme-analytics.reporting.sessions` (session_date, user_id, session_id, bucket, purchases)
  SELECT session_date, user_id, session_id, bucket, purchases
  FROM `acme-analytics.backfill_staging.sessions_20240501`;

  COMMIT TRANSACTION;
EXCEPTION WHEN ERROR THEN
  ROLLBACK TRANSACTION;
  RAISE USING MESSAGE = @@error.message;
END;

DROP TABLE IF EXISTS `acme-analytics.backfill_staging.sessions_20240501`;

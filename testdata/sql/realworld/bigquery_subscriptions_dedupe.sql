# Deduplicate the subscription change log for Q1 2024 and swap the
# corrected quarter into the reporting table, only when staging checks out.
DECLARE q_start DATE DEFAULT '2024-01-01';
DECLARE q_end DATE DEFAULT '2024-03-31';
DECLARE dup_keys INT64;

CREATE TEMP TABLE changes_q1 AS
SELECT
  * EXCEPT (raw_payload, _loaded_at)
    REPLACE (LOWER(TRIM(plan_code)) AS plan_code, SAFE_CAST(seats AS INT64) AS seats),
  JSON_VALUE(raw_payload, '$.reason') AS change_reason
FROM `acme-analytics.raw.subscription_changes`
WHERE change_date BETWEEN q_start AND q_end
QUALIFY ROW_NUMBER() OVER (PARTITION BY subscription_id, change_date ORDER BY _loaded_at DESC) = 1;

SET dup_keys = (
  SELECT COUNT(*) FROM (
    SELECT subscription_id, change_date
    FROM changes_q1
    GROUP BY subscription_id, change_date
    HAVING COUNT(*) > 1
  )
);

IF dup_keys > 0 THEN
  RAISE USING MESSAGE = FORMAT('%d duplicate keys after dedupe', dup_keys);
END IF;

IF EXISTS (SELECT 1 FROM changes_q1 WHERE change_date > CURRENT_DATE()) THEN
  DELETE FROM changes_q1 WHERE change_date > CURRENT_DATE();
END IF;

CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.subscriptions_q1`
PARTITION BY DATE_TRUNC(change_date, MONTH)
CLUSTER BY subscription_id
AS
SELECT
  c.* EXCEPT (change_reason),
  p.tiers[ORDINAL(1)] AS entry_tier,
  p.tiers[SAFE_ORDINAL(ARRAY_LENGTH(p.tiers))] AS top_tier,
  STRUCT(c.seats AS seats, p.list_price AS list_price) AS pricing
FROM changes_q1 AS c
LEFT JOIN `acme-analytics.ref.plans` AS p
  ON p.plan_code = c.plan_code;

BEGIN
  DECLARE swapped INT64 DEFAULT 0;
  BEGIN TRANSACTION;
  DELETE `acme-analytics.reporting.subscriptions`
  WHERE change_date BETWEEN q_start AND q_end;
  INSERT `acme-analytics.reporting.subscriptions`
  SELECT * EXCEPT (pricing) FROM `acme-analytics.backfill_staging.subscriptions_q1`;
  SET swapped = @@row_count;
  COMMIT TRANSACTION;
  SELECT swapped AS rows_published;
EXCEPTION WHEN ERROR THEN
  ROLLBACK TRANSACTION;
  SELECT @@error.message AS failure, @@error.statement_text AS failed_statement;
END;

SELECT
  DATE_TRUNC(change_date, MONTH) AS month,
  COUNT(*) AS changes,
  COUNT(DISTINCT subscription_id) AS subscriptions
FROM `acme-analytics.reporting.subscriptions`
WHERE change_date BETWEEN '2024-01-01' AND '2024-03-31'
GROUP BY month
ORDER BY month;

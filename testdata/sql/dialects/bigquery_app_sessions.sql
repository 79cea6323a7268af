-- Rebuild a week of app sessions from the desktop and mobile tables,
-- whose columns come in different orders.
CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.app_sessions_2024w10` AS
SELECT session_id, user_id, started_at, 'desktop' AS platform
FROM `acme-analytics.raw.desktop_sessions`
WHERE DATE(started_at) BETWEEN '2024-03-04' AND '2024-03-10'
UNION ALL BY NAME
SELECT user_id, session_id, started_at, 'mobile' AS platform
FROM `acme-analytics.raw.mobile_sessions`
WHERE DATE(started_at) BETWEEN '2024-03-04' AND '2024-03-10';

-- Each user's first platform and entry page of the week.
SELECT
  user_id,
  ARRAY_AGG(platform ORDER BY started_at LIMIT 1)[OFFSET(0)] AS first_platform,
  SPLIT(ANY_VALUE(entry_url), '?')[SAFE_OFFSET(0)] AS entry_path
FROM `acme-analytics.backfill_staging.app_sessions_2024w10`
GROUP BY user_id;

-- Each user's primary plan and its session limit.
SELECT user_id, plan_id, limit, primary
FROM `acme-analytics.raw.user_plans`
WHERE primary AND limit > 0;

-- Control period 2026-02-01..2026-02-28, before the faulty deploy: the
-- model's logic must reproduce what the target holds there. The run only
-- stages the range, so the check builds its own staging copy of the
-- control period, then compares it row by row with the target. Passes when
-- changed_rows = 0.
DROP TABLE IF EXISTS backfill_staging.fct_sessions__bf20260302_a_control;

CREATE TABLE backfill_staging.fct_sessions__bf20260302_a_control AS
SELECT
    session_id,
    user_id,
    started_at,
    CAST(started_at AS DATE) AS session_date,
    page_views
FROM raw.sessions
WHERE NOT is_bot
  AND started_at >= TIMESTAMP '2026-02-01 00:00:00'
  AND started_at < TIMESTAMP '2026-03-01 00:00:00';

SELECT COUNT(*) AS changed_rows
FROM backfill_staging.fct_sessions__bf20260302_a_control AS c
FULL OUTER JOIN (
    SELECT session_id, user_id, started_at, session_date, page_views
    FROM analytics.fct_sessions
    WHERE session_date BETWEEN DATE '2026-02-01' AND DATE '2026-02-28'
) AS t
    ON t.session_id = c.session_id
WHERE c.session_id IS NULL
   OR t.session_id IS NULL
   OR (c.user_id, c.started_at, c.session_date, c.page_views)
      IS DISTINCT FROM
      (t.user_id, t.started_at, t.session_date, t.page_views);

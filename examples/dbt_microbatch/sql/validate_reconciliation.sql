-- Per day of the range, the sessions staged against the sessions people
-- started in the raw data. Passes when max_abs_delta = 0.
SELECT MAX(ABS(COALESCE(s.sessions, 0) - COALESCE(r.sessions, 0))) AS max_abs_delta
FROM (
    SELECT session_date, COUNT(*) AS sessions
    FROM backfill_staging.fct_sessions__bf20260302_a
    WHERE session_date BETWEEN DATE '2026-03-02' AND DATE '2026-04-15'
    GROUP BY session_date
) AS s
FULL OUTER JOIN (
    SELECT CAST(started_at AS DATE) AS session_date, COUNT(*) AS sessions
    FROM raw.sessions
    WHERE NOT is_bot
      AND started_at >= TIMESTAMP '2026-03-02 00:00:00'
      AND started_at < TIMESTAMP '2026-04-16 00:00:00'
    GROUP BY CAST(started_at AS DATE)
) AS r
    ON r.session_date = s.session_date;

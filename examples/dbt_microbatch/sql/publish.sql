-- The range changes at one commit: readers see the old days up to it and
-- the corrected ones after it. Running it again changes nothing, since it
-- replaces the same days with the same staged rows.
BEGIN;

DELETE FROM analytics.fct_sessions
WHERE session_date BETWEEN DATE '2026-03-02' AND DATE '2026-04-15';

INSERT INTO analytics.fct_sessions (session_id, user_id, started_at, session_date, page_views)
SELECT session_id, user_id, started_at, session_date, page_views
FROM backfill_staging.fct_sessions__bf20260302_a
WHERE session_date BETWEEN DATE '2026-03-02' AND DATE '2026-04-15';

COMMIT;

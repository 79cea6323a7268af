-- Puts the range back as it was before the publish, from the copy
-- capture.sql took.
BEGIN;

DELETE FROM analytics.fct_sessions
WHERE session_date BETWEEN DATE '2026-03-02' AND DATE '2026-04-15';

INSERT INTO analytics.fct_sessions (session_id, user_id, started_at, session_date, page_views)
SELECT session_id, user_id, started_at, session_date, page_views
FROM backfill_rollback.fct_sessions__pre_bf20260302_a;

COMMIT;

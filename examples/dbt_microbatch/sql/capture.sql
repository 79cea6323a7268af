-- Before the publish: a copy of the range as readers see it now.
CREATE TABLE backfill_rollback.fct_sessions__pre_bf20260302_a AS
SELECT session_id, user_id, started_at, session_date, page_views
FROM analytics.fct_sessions
WHERE session_date BETWEEN DATE '2026-03-02' AND DATE '2026-04-15';

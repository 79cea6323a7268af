INSERT INTO analytics.fct_events_hourly
REPLACE WHERE event_hour BETWEEN '2026-03-01T00:00' AND '2026-03-01T22:00'  -- want BF104 "ends the SQL's range at 2026-03-01T22:00, not at range.end 2026-03-01T23:00: .*; write event_hour <= '2026-03-01 23:00'"
SELECT * FROM backfill_staging.fct_events_hourly__bf20260301_h;

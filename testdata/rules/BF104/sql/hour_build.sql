CREATE TABLE backfill_staging.fct_events_hourly__bf20260301_h AS
SELECT * FROM raw.events
WHERE event_hour >= TIMESTAMP '2026-03-01 00:00' AND event_hour < TIMESTAMP '2026-03-02 00:00';

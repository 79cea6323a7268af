-- Plain SQL that appends only what the table lacks inserts nothing twice.
INSERT INTO analytics.events (event_id, created_at)
SELECT s.event_id, s.created_at
FROM raw.events AS s
WHERE s.event_id NOT IN (SELECT event_id FROM analytics.events);

-- A procedure's log row: the values it is called with, not rows computed
-- from a source.
INSERT INTO ops.run_log (level, message) VALUES (:p_level, :p_message);

-- The same shape without the guard appends again on every run.
INSERT INTO analytics.events (event_id, created_at)  -- want BF201 "INSERT into \"analytics.events\" appends"
SELECT s.event_id, s.created_at
FROM raw.events AS s
WHERE s.created_at >= (SELECT MAX(created_at) FROM analytics.events);

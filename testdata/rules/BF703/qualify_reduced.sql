-- Expanding each version over a date spine with a closed interval matches
-- two versions on a change day, but QUALIFY keeps one row per key and day
-- (the latest version), so nothing is written twice.
SELECT
  subs.namespace_id,
  subs.seats,
  days.date_day
FROM analytics.subscription_history AS subs
INNER JOIN analytics.calendar_days AS days
  ON days.date_day BETWEEN TO_DATE(subs.valid_from) AND IFNULL(subs.valid_to, CURRENT_DATE)
QUALIFY ROW_NUMBER() OVER (PARTITION BY subs.namespace_id, days.date_day ORDER BY subs.valid_from DESC) = 1;

-- Each day's partition starts from the day before.
SELECT
  COALESCE(today.client_id, yesterday.client_id) AS client_id,
  @submission_date AS submission_date,
  IF(today.client_id IS NOT NULL, 0, yesterday.days_since_seen + 1) AS days_since_seen
FROM
  clients_derived.clients_seen_v2 AS yesterday
FULL JOIN
  (SELECT DISTINCT client_id FROM clients_derived.clients_daily_v1 WHERE submission_date = @submission_date) AS today
  USING (client_id)
WHERE
  yesterday.submission_date = DATE_SUB(@submission_date, INTERVAL 1 DAY)

-- Each day's partition starts from the day before.
SELECT
  client_id,
  @submission_date AS submission_date
FROM
  clients_derived.clients_last_seen_v1
WHERE
  submission_date = DATE_SUB(@submission_date, INTERVAL 1 DAY)

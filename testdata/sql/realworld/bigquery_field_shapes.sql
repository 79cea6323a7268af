-- Shapes common in public BigQuery ETL code, written for bflint's corpus:
-- a trailing comma before FROM, a function result expanded with .*, the
-- empty string written "", and a join of an array with no ON.
CREATE TEMP FUNCTION pick_fields(r ANY TYPE) AS (STRUCT(r.id AS id, r.name AS name));

SELECT
  pick_fields(release).*,
  IF(cur.client_id IS NOT NULL, cur, prev).* EXCEPT (client_id),
  IF(channel = "", NULL, channel) AS channel,
  addon.id AS addon_id,
FROM
  `shop-prod.telemetry.clients_daily` AS cur
LEFT JOIN
  `shop-prod.telemetry.clients_daily_previous` AS prev
  USING (client_id)
LEFT JOIN
  UNNEST(cur.addons) AS addon
WHERE
  cur.submission_date = @submission_date;

SELECT
  s.id,
  step,
  step_offset,
FROM
  `shop-prod.checkout.sessions` AS s
LEFT JOIN
  UNNEST(s.steps) AS step
  WITH OFFSET AS step_offset
WHERE
  s.session_date = @submission_date;

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

-- A stored procedure whose body declares variables before it writes; a
-- name quoted with backticks right after an operator (STRUCT<`end` ...>,
-- ~`bits`); a string that escapes its own quote; a bytes literal holding
-- NUL bytes; and the drop of a snapshot table.
CREATE OR REPLACE PROCEDURE shop_ops.refresh_daily(day DATE, OUT written INT64)
BEGIN
  DECLARE batch STRUCT<id INT64, `end` DATE>;
  DECLARE flags ARRAY<STRING> DEFAULT[];
  INSERT INTO `shop-prod.ops.refresh_log` (day, flag_bits)
  SELECT day, ~`bits` FROM `shop-prod.ops.flags` WHERE flag = "a\"b";
  SET written = (SELECT COUNT(*) FROM `shop-prod.ops.refresh_log` WHERE flag_bits = b"\x00\x01");
END;

DROP SNAPSHOT TABLE `shop-prod.ops.flags_yesterday`;

-- The join may match two label versions on a boundary day, but the query
-- numbers each issue's rows for the day and keeps the first (rn = 1 in the
-- query reading the CTE): nothing is written twice.
WITH daily AS (
  SELECT
    d.date_actual,
    i.issue_id,
    l.label,
    ROW_NUMBER() OVER (PARTITION BY i.issue_id, d.date_actual ORDER BY l.valid_to) AS rn
  FROM analytics.issues AS i
  JOIN analytics.dates AS d ON d.date_actual >= i.created_on
  LEFT JOIN analytics.label_history AS l
    ON l.issue_id = i.issue_id
   AND d.date_actual BETWEEN l.valid_from AND l.valid_to
)
SELECT date_actual, issue_id, label
FROM daily
WHERE rn = 1;

-- Numbered but never reduced: a boundary day still writes two rows.
WITH daily AS (
  SELECT
    d.date_actual,
    i.issue_id,
    l.label,
    ROW_NUMBER() OVER (PARTITION BY i.issue_id, d.date_actual ORDER BY l.valid_to) AS rn
  FROM analytics.issues AS i
  JOIN analytics.dates AS d ON d.date_actual >= i.created_on
  LEFT JOIN analytics.label_history AS l  -- want BF703 "closes the validity interval with BETWEEN"
    ON l.issue_id = i.issue_id
   AND d.date_actual BETWEEN l.valid_from AND l.valid_to
)
SELECT date_actual, issue_id, label, rn
FROM daily;

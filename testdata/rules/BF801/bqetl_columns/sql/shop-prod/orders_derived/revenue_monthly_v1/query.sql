-- The project is written without backticks, as BigQuery allows.
SELECT
  DATE_TRUNC(submission_date, MONTH) AS month,
  SUM(total) AS revenue
FROM
  shop-prod.orders_derived.daily_totals_v1
WHERE
  submission_date = @submission_date
GROUP BY
  month

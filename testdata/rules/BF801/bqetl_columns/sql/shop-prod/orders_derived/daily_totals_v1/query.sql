-- Reads the corrected table through its view.
SELECT
  submission_date,
  SUM(amount) AS total
FROM
  orders.orders
WHERE
  submission_date = @submission_date
GROUP BY
  submission_date

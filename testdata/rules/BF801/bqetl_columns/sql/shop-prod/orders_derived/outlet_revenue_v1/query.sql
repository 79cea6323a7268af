-- Reaches orders_v1 only through the union of stores, and reads the
-- outlet's branch: a correction of orders_v1 changes none of its rows,
-- which bflint cannot tell from a filter on values, so it is not reported.
SELECT
  submission_date,
  SUM(amount) AS revenue
FROM
  `shop-prod.orders.all_stores`
WHERE
  submission_date = @submission_date
  AND store = 'outlet'
GROUP BY
  submission_date

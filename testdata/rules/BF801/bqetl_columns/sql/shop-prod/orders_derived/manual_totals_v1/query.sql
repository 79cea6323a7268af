SELECT
  submission_date,
  COUNT(*) AS orders
FROM
  `shop-prod.orders_derived.orders_v1`
WHERE
  submission_date = @submission_date
GROUP BY
  submission_date

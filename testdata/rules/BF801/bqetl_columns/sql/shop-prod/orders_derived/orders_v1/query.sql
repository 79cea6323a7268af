SELECT
  DATE(submission_timestamp) AS submission_date,
  order_id,
  amount
FROM
  `shop-prod.orders_stable.orders_v1`
WHERE
  DATE(submission_timestamp) = @submission_date
QUALIFY
  ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY submission_timestamp) = 1

-- One partition of orders a day, deduplicated.
SELECT
  DATE(created_at) AS submission_date,
  order_id,
  amount
FROM
  `shop-prod.orders_stable.orders_v1`
WHERE
  DATE(created_at) = @submission_date
QUALIFY
  ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY created_at DESC) = 1

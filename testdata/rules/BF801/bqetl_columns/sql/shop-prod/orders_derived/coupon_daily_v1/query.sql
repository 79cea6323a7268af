-- Reads coupon_code of orders_v1 under the name the view gives it.
SELECT
  submission_date,
  coupon_label,
  COUNT(*) AS orders
FROM
  `shop-prod.orders.coupons`
WHERE
  submission_date = @submission_date
GROUP BY
  submission_date,
  coupon_label

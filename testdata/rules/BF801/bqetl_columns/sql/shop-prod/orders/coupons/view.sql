CREATE OR REPLACE VIEW
  `shop-prod.orders.coupons`
AS
SELECT
  submission_date,
  UPPER(coupon_code) AS coupon_label
FROM
  `shop-prod.orders_derived.orders_v1`

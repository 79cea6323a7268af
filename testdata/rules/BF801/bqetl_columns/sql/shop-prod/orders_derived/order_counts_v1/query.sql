SELECT
  COUNT(*) AS orders
FROM
  orders_derived.orders_v1

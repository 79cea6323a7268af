CREATE OR REPLACE VIEW
  `shop-prod.orders.orders`
AS
SELECT
  *
FROM
  `shop-prod.orders_derived.orders_v1`

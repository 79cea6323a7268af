-- One branch per store: a reader filtering on store reads one store's rows.
CREATE OR REPLACE VIEW
  `shop-prod.orders.all_stores`
AS
SELECT
  'shop' AS store,
  *
FROM
  `shop-prod.orders.orders`
UNION ALL
SELECT
  'outlet' AS store,
  *
FROM
  `shop-prod.outlet_derived.orders_v1`

-- Joins to the histories histories.sql defines. Where valid_to is the
-- last day of a version, BETWEEN includes exactly the days it holds.
SELECT o.order_id, p.price, d.discount
FROM `shop-prod.sales.orders` AS o
LEFT JOIN `shop-prod.pricing.price_history` AS p
  ON p.sku = o.sku
  AND o.order_date BETWEEN p.valid_from AND p.valid_to
LEFT JOIN pricing.discount_history AS d
  ON d.sku = o.sku
  AND o.order_date BETWEEN d.valid_from AND d.valid_to;

-- Where valid_to is the next version's start, BETWEEN matches two
-- versions on every change day.
SELECT o.order_id, t.rate
FROM `shop-prod.sales.orders` AS o
JOIN pricing.tax_history AS t  -- want BF703 "join to type-2 dimension \"pricing.tax_history\" \\(alias \"t\"\\) closes the validity interval with BETWEEN t.valid_from AND t.valid_to"
  ON t.region = o.region
  AND o.order_date BETWEEN t.valid_from AND t.valid_to;

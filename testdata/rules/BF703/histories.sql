-- A date-grained history whose versions end the day before the next one
-- starts: its valid_to is the last day a price holds, so the interval
-- includes its end. Joins to it in this run use BETWEEN rightly
-- (inclusive_end.sql).
CREATE OR REPLACE VIEW `shop-prod.pricing.price_history`
AS
SELECT
  sku,
  price,
  effective_date AS valid_from,
  COALESCE(LEAD(effective_date) OVER (PARTITION BY sku ORDER BY effective_date) - 1, DATE '9999-12-31') AS valid_to
FROM `shop-prod.pricing.prices`;

CREATE OR REPLACE TABLE pricing.discount_history AS
SELECT
  sku,
  discount,
  starts_on AS valid_from,
  DATE_SUB(LEAD(starts_on) OVER (PARTITION BY sku ORDER BY starts_on), INTERVAL 1 DAY) AS valid_to
FROM pricing.discounts;

-- This one ends where the next begins: the interval excludes its end.
CREATE OR REPLACE TABLE pricing.tax_history AS
SELECT
  region,
  rate,
  starts_on AS valid_from,
  LEAD(starts_on) OVER (PARTITION BY region ORDER BY starts_on) AS valid_to
FROM pricing.taxes;

# Reshape order documents into one row per line item for the March
# backfill, keep the latest version of each order, and publish by MERGE.

CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.order_lines_2024_03`
PARTITION BY order_date
CLUSTER BY store_id, sku
OPTIONS (
  description = 'order lines rebuilt for 2024-03',
  labels = [('owner', 'data-platform'), ('backfill', 'orders-2024-03')]
)
AS
WITH latest AS (
  SELECT ARRAY_AGG(o ORDER BY o.updated_at DESC LIMIT 1)[OFFSET(0)] AS doc
  FROM `acme-analytics.raw.orders` AS o
  WHERE o.order_date BETWEEN '2024-03-01' AND '2024-03-31'
  GROUP BY o.order_id
)
SELECT
  latest.doc.order_id,
  latest.doc.order_date,
  latest.doc.store_id,
  item.sku,
  item.quantity,
  item.unit_price,
  line_no + 1 AS line_number,
  SPLIT(item.sku, '-')[SAFE_OFFSET(0)] AS sku_family,
  latest.doc.tags[SAFE_ORDINAL(1)] AS first_tag
FROM latest
CROSS JOIN UNNEST(latest.doc.items) AS item WITH OFFSET AS line_no;

-- Stores whose carts hold more than one currency, from a literal list of
-- the currencies each region accepts.
SELECT
  region,
  currency
FROM UNNEST([
  STRUCT('emea' AS region, ['EUR', 'GBP', 'CHF'] AS currencies),
  STRUCT('amer' AS region, ['USD', 'CAD'] AS currencies)
]) AS r
CROSS JOIN UNNEST(r.currencies) AS currency WITH OFFSET
ORDER BY region, currency;

-- Promotions per order as an array of structs.
CREATE TEMP TABLE order_promos AS
SELECT
  l.order_id,
  ARRAY_AGG(STRUCT(p.code AS promo_code, p.discount AS discount, p.applied_at AS applied_at)
            ORDER BY p.applied_at) AS promos,
  ARRAY(
    SELECT AS STRUCT code, discount
    FROM UNNEST(l.promo_codes) AS code WITH OFFSET pos
    JOIN `acme-analytics.ref.promotions` USING (code)
    ORDER BY pos
  ) AS promo_details
FROM `acme-analytics.backfill_staging.order_lines_2024_03` AS l
LEFT JOIN `acme-analytics.raw.promotion_events` AS p
  ON p.order_id = l.order_id
GROUP BY l.order_id, l.promo_codes;

SELECT AS VALUE STRUCT(order_id AS id, ARRAY_LENGTH(promos) AS n_promos)
FROM order_promos
WHERE ARRAY_LENGTH(promos) > 0;

MERGE `acme-analytics.reporting.order_lines` AS t
USING (
  SELECT * EXCEPT (first_tag) REPLACE (ROUND(unit_price, 2) AS unit_price)
  FROM `acme-analytics.backfill_staging.order_lines_2024_03`
) AS s
ON t.order_id = s.order_id AND t.line_number = s.line_number
WHEN MATCHED THEN
  UPDATE SET quantity = s.quantity, unit_price = s.unit_price, sku_family = s.sku_family
WHEN NOT MATCHED AND s.order_date BETWEEN '2024-03-01' AND '2024-03-31' THEN
  INSERT (order_id, order_date, store_id, sku, quantity, unit_price, line_number, sku_family)
  VALUES (s.order_id, s.order_date, s.store_id, s.sku, s.quantity, s.unit_price, s.line_number, s.sku_family);

SELECT
  order_date,
  COUNT(*) AS line_count,
  SUM(quantity * unit_price) AS gross
FROM `acme-analytics.reporting.order_lines`
WHERE order_date BETWEEN '2024-03-01' AND '2024-03-31'
  AND store_id IN UNNEST(@store_ids)
  AND sku NOT IN UNNEST(['GIFT-CARD', 'SHIPPING'])
GROUP BY order_date
ORDER BY order_date;

-- Backfill of the clickstream silver table for 2024-06-01..2024-06-07:
-- explode the nested hit arrays of the bronze JSON and overwrite the
-- affected date partitions only.
SET spark.sql.sources.partitionOverwriteMode = dynamic;
SET spark.sql.shuffle.partitions = 400;

CREATE TABLE IF NOT EXISTS `lakehouse`.`silver`.`click_hits` (
  visit_id STRING,
  hit_number INT,
  page STRUCT<path: STRING, title: STRING, section: STRING>,
  products ARRAY<STRUCT<sku: STRING, qty: INT, price: DECIMAL(12, 2)>>,
  custom_dims MAP<STRING, STRING>,
  hit_ts TIMESTAMP,
  ds DATE
)
USING DELTA
PARTITIONED BY (ds)
TBLPROPERTIES ('delta.autoOptimize.optimizeWrite' = 'true');

INSERT OVERWRITE TABLE `lakehouse`.`silver`.`click_hits` PARTITION (ds)
SELECT
  v.visit_id,
  h.pos + 1 AS hit_number,
  named_struct('path', h.hit.page.path, 'title', h.hit.page.title, 'section', split(h.hit.page.path, '/')[1]) AS page,
  h.hit.products AS products,
  map_from_entries(transform(h.hit.custom_dims, d -> struct(d.name, d.value))) AS custom_dims,
  to_timestamp(v.visit_start + h.hit.time_offset_ms / 1000) AS hit_ts,
  v.ds
FROM `lakehouse`.`bronze`.`visits` v
LATERAL VIEW POSEXPLODE(v.hits) h AS pos, hit
WHERE v.ds BETWEEN '2024-06-01' AND '2024-06-07';

-- One row per product seen in a hit, with visits that saw none kept.
CREATE OR REPLACE TEMPORARY VIEW hit_products AS
SELECT
  c.visit_id,
  c.hit_number,
  p.sku,
  p.qty,
  p.price,
  c.ds
FROM `lakehouse`.`silver`.`click_hits` c
LATERAL VIEW OUTER EXPLODE(c.products) prod AS p
WHERE c.ds BETWEEN '2024-06-01' AND '2024-06-07';

INSERT OVERWRITE lakehouse.gold.product_views PARTITION (ds = '2024-06-01')
SELECT sku, count(DISTINCT visit_id) AS visits, sum(qty) AS units
FROM hit_products
WHERE ds = '2024-06-01'
GROUP BY sku;

-- Custom dimensions as rows.
SELECT c.ds, dim_key, count(*) AS hits
FROM `lakehouse`.`silver`.`click_hits` c
LATERAL VIEW EXPLODE(c.custom_dims) dims AS dim_key, dim_value
WHERE c.ds BETWEEN '2024-06-01' AND '2024-06-07'
  AND dim_value IS NOT NULL
GROUP BY c.ds, dim_key;

-- A derived column of a struct type, filled from the exploded hits.
ALTER TABLE lakehouse.silver.click_hits ADD COLUMNS (referrer STRUCT<host: STRING, path: STRING>);

OPTIMIZE lakehouse.silver.click_hits
WHERE ds BETWEEN '2024-06-01' AND '2024-06-07'
ZORDER BY (visit_id);

-- Hits whose page struct lost its section in the bronze data: take it
-- from the page catalogue for the backfilled week.
MERGE INTO `lakehouse`.`silver`.`click_hits` AS t
USING (
  SELECT h.visit_id, h.hit_number, h.ds, named_struct('path', h.page.path, 'title', h.page.title, 'section', cat.section) AS page
  FROM `lakehouse`.`silver`.`click_hits` h
  JOIN `lakehouse`.`ref`.`page_catalogue` cat ON cat.path = h.page.path
  WHERE h.ds BETWEEN '2024-06-01' AND '2024-06-07' AND h.page.section IS NULL
) AS s
ON t.visit_id = s.visit_id AND t.hit_number = s.hit_number AND t.ds = s.ds
WHEN MATCHED THEN UPDATE SET t.page = s.page;

-- Test traffic never belonged in the table.
DELETE FROM `lakehouse`.`silver`.`click_hits`
WHERE ds BETWEEN '2024-06-01' AND '2024-06-07'
  AND custom_dims['traffic_type'] = 'synthetic';

-- Products of each hit as columns, through inline() on the struct array.
CREATE OR REPLACE TEMPORARY VIEW hit_product_rows AS
SELECT c.visit_id, c.hit_number, p.sku, p.qty, p.price
FROM `lakehouse`.`silver`.`click_hits` c
LATERAL VIEW inline(c.products) p AS sku, qty, price
WHERE c.ds BETWEEN '2024-06-01' AND '2024-06-07';

SELECT ds, count(*) AS hits, count(DISTINCT visit_id) AS visits
FROM `lakehouse`.`silver`.`click_hits`
WHERE ds BETWEEN '2024-06-01' AND '2024-06-07'
GROUP BY ds
ORDER BY ds;

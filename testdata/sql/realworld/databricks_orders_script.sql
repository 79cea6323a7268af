-- A Databricks SQL script that reloads one week of orders from the landing
-- volume and replaces that week of the silver table, day by day.
BEGIN
  DECLARE week_start DATE DEFAULT DATE'2024-09-02';
  DECLARE day_offset INT DEFAULT 0;

  COPY INTO `main`.`landing`.`orders_raw`
  FROM '/Volumes/main/landing/orders/2024-09-02/'
  FILEFORMAT = JSON
  FORMAT_OPTIONS ('multiLine' = 'true')
  COPY_OPTIONS ('mergeSchema' = 'true');

  WHILE day_offset < 7 DO
    INSERT INTO `main`.`silver`.`orders`
    REPLACE WHERE order_date = date_add(week_start, day_offset)
    SELECT
      o.order_id,
      CAST(o.order_ts AS DATE) AS order_date,
      from_json(o.payload, 'struct<customer:struct<id:bigint,tier:string>,items:array<struct<sku:string,qty:int>>>') AS doc,
      CAST(o.tags AS ARRAY<STRING>) AS tags,
      CAST(o.attributes AS MAP<STRING, STRING>) AS attributes
    FROM `main`.`landing`.`orders_raw` o
    WHERE CAST(o.order_ts AS DATE) = date_add(week_start, day_offset)
    QUALIFY row_number() OVER (PARTITION BY o.order_id ORDER BY o._ingested_at DESC) = 1;

    SET VAR day_offset = day_offset + 1;
  END WHILE;

  IF (SELECT count(*) FROM `main`.`silver`.`orders` WHERE order_date BETWEEN week_start AND date_add(week_start, 6)) = 0 THEN
    SIGNAL SQLSTATE '22000' SET MESSAGE_TEXT = 'no orders loaded for the week';
  END IF;
END;

-- Line items of the reloaded week, one row per item.
CREATE OR REPLACE TABLE `main`.`gold`.`order_items_w36`
CLUSTER BY (sku)
AS
SELECT o.order_id, o.order_date, item.sku, item.qty, o.doc.customer.tier
FROM `main`.`silver`.`orders` o
LATERAL VIEW explode(o.doc.items) items AS item
WHERE o.order_date BETWEEN '2024-09-02' AND '2024-09-08';

SELECT order_date, count(*) AS orders, sum(size(tags)) AS tags
FROM `main`.`silver`.`orders`
WHERE order_date BETWEEN '2024-09-02' AND '2024-09-08'
GROUP BY ALL;

-- Daily totals by customer tier for the week, partition by partition.
INSERT OVERWRITE `main`.`gold`.`orders_daily` PARTITION (order_date)
SELECT doc.customer.tier AS tier, count(*) AS orders, sum(aggregate(doc.items, 0, (acc, i) -> acc + i.qty)) AS units, order_date
FROM `main`.`silver`.`orders`
WHERE order_date BETWEEN '2024-09-02' AND '2024-09-08'
GROUP BY doc.customer.tier, order_date;

-- A shallow clone to diff against before the next reload.
CREATE OR REPLACE TABLE `main`.`scratch`.`orders_w36_check` SHALLOW CLONE `main`.`silver`.`orders`;

SELECT o.order_date, count(*) AS changed
FROM `main`.`silver`.`orders` o
JOIN `main`.`scratch`.`orders_w36_check` c USING (order_id)
WHERE o.doc <> c.doc
GROUP BY o.order_date;

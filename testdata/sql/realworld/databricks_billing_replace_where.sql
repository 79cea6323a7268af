-- Correct the billing facts for May 2024 after a currency-rate fix:
-- rebuild the month into staging, compare, then replace exactly that
-- month of the gold table with REPLACE WHERE.
USE CATALOG finance;
USE SCHEMA billing;

CREATE OR REPLACE TEMPORARY FUNCTION to_eur(amount DECIMAL(18, 4), rate DOUBLE)
RETURNS DECIMAL(18, 4)
RETURN round(amount * rate, 4);

CREATE TEMPORARY FUNCTION IF NOT EXISTS fiscal_month(d DATE)
RETURNS STRING
LANGUAGE SQL
RETURN date_format(add_months(d, 3), 'yyyy-MM');

CREATE OR REPLACE TABLE `finance`.`staging`.`invoice_lines_202405`
USING DELTA
PARTITIONED BY (invoice_date)
AS
SELECT
  l.invoice_id,
  l.line_no,
  l.invoice_date,
  fiscal_month(l.invoice_date) AS fiscal_month,
  to_eur(l.amount, r.rate) AS amount_eur,
  l.attributes:discount.code::string AS discount_code,
  struct(l.customer_id AS id, l.country AS country) AS customer,
  map('source', l.source_system, 'batch', l.batch_id) AS lineage
FROM `finance`.`bronze`.`invoice_lines` l
JOIN `finance`.`ref`.`fx_rates` TIMESTAMP AS OF '2024-06-03T00:00:00Z' r
  ON r.currency = l.currency AND r.rate_date = l.invoice_date
WHERE l.invoice_date BETWEEN '2024-05-01' AND '2024-05-31';

SELECT invoice_date, count(*) AS lines, sum(amount_eur) AS eur
FROM `finance`.`staging`.`invoice_lines_202405`
GROUP BY ALL
ORDER BY invoice_date;

INSERT INTO `finance`.`gold`.`invoice_lines`
REPLACE WHERE invoice_date >= '2024-05-01' AND invoice_date < '2024-06-01'
SELECT invoice_id, line_no, invoice_date, fiscal_month, amount_eur, discount_code
FROM `finance`.`staging`.`invoice_lines_202405`;

-- Monthly totals follow the lines, keyed by customer and month.
MERGE INTO `finance`.`gold`.`customer_month` AS t
USING (
  SELECT customer.id AS customer_id, fiscal_month, sum(amount_eur) AS amount_eur
  FROM `finance`.`staging`.`invoice_lines_202405`
  GROUP BY customer.id, fiscal_month
) AS s
ON t.customer_id = s.customer_id AND t.fiscal_month = s.fiscal_month
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED THEN INSERT *
WHEN NOT MATCHED BY SOURCE AND t.fiscal_month = fiscal_month(DATE'2024-05-01') THEN DELETE;

-- Discount codes as rows, from the array column of the bronze table.
INSERT INTO `finance`.`staging`.`discount_usage`
SELECT l.invoice_id, code, code_pos
FROM `finance`.`bronze`.`invoice_lines` l
LATERAL VIEW POSEXPLODE(from_json(l.attributes:discount.codes, 'array<string>')) c AS code_pos, code
WHERE l.invoice_date BETWEEN '2024-05-01' AND '2024-05-31';

INSERT INTO TABLE `finance`.`gold`.`invoice_lines_history`
REPLACE WHERE snapshot_date = '2024-06-03'
SELECT *, DATE'2024-06-03' AS snapshot_date
FROM `finance`.`gold`.`invoice_lines`
WHERE invoice_date BETWEEN '2024-05-01' AND '2024-05-31';

ANALYZE TABLE `finance`.`gold`.`invoice_lines` COMPUTE STATISTICS FOR ALL COLUMNS;

-- Housekeeping that bflint leaves as written.
RESTORE TABLE `finance`.`staging`.`invoice_lines_202405` TO VERSION AS OF 0;

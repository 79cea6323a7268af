-- Replace three days of the Delta table in one atomic write.
INSERT INTO main.sales.fct_orders
REPLACE WHERE order_date >= '2024-02-01' AND order_date < '2024-02-04'
SELECT o.*
FROM main.sales_staging.orders_fix AS o
WHERE o.order_date >= '2024-02-01' AND o.order_date < '2024-02-04';

INSERT INTO main.sales.fct_refunds REPLACE WHERE refund_date IN (SELECT DISTINCT refund_date FROM main.sales_staging.refund_dates)
SELECT * EXCEPT (_rescued_data) FROM main.sales_staging.refunds_fix;

INSERT INTO main.sales.order_notes BY NAME
SELECT note, order_id, created_at FROM main.sales_staging.order_notes_fix;

DELETE FROM main.sales.fct_orders_daily
WHERE order_date BETWEEN '2024-02-01' AND '2024-02-03';

INSERT INTO main.sales.fct_orders_daily
SELECT order_date, SUM(amount) AS amount
FROM main.sales.fct_orders
WHERE order_date BETWEEN '2024-02-01' AND '2024-02-03'
  AND status RLIKE '^(paid|shipped)$'
GROUP BY order_date;

UPDATE main.sales.fct_orders
SET amount = try_cast(amount_str AS DECIMAL(18, 2))
WHERE order_date = '2024-02-01' AND amount IS NULL;

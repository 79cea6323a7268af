-- Idempotent file ingestion: COPY INTO skips files it already loaded.
COPY INTO main.raw.orders_landing
FROM 's3://acme-landing/orders/2024/02/'
FILEFORMAT = JSON
FORMAT_OPTIONS ('multiLine' = 'true')
COPY_OPTIONS ('mergeSchema' = 'true');

COPY INTO main.raw.payments_landing
FROM (
  SELECT _c0::bigint AS payment_id, to_date(_c1, 'yyyy-MM-dd') AS paid_on, _c2::decimal(18, 2) AS amount
  FROM 's3://acme-landing/payments/'
)
FILEFORMAT = CSV
PATTERN = 'day=2024-02-0[1-3]/*.csv'
FORMAT_OPTIONS ('header' = 'false');

SELECT paid_on, count(*) AS n
FROM main.raw.payments_landing
WHERE paid_on BETWEEN '2024-02-01' AND '2024-02-03'
GROUP BY paid_on
HAVING count(*) > 0;

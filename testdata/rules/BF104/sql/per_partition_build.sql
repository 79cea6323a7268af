CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_a AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-01'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_a
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-02'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_a
SELECT *
FROM (
  SELECT submission_date, COUNT(*) AS orders
  FROM raw.orders
  WHERE submission_date = DATE '2026-03-03'
  GROUP BY submission_date
) AS query
WHERE query.submission_date >= DATE '2026-03-03' AND query.submission_date < DATE '2026-03-04';

CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_a_control AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-02-27'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_a_control
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-02-28'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_a_control
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-02-26'  -- want BF104 "holds the SQL to 2026-02-26 alone"
GROUP BY submission_date;

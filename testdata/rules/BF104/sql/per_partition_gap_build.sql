CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_b AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-01'  -- want BF104 "no statement computes 2026-03-02: that partition of range 2026-03-01..2026-03-04 stays as the target has it"
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_b
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-03'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_b
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-04'
GROUP BY submission_date;

INSERT INTO backfill_staging.orders_daily__bf20260301_b
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date = DATE '2026-03-05'  -- want BF104 "holds the SQL to 2026-03-05 alone, not to the range 2026-03-01..2026-03-04"
GROUP BY submission_date;

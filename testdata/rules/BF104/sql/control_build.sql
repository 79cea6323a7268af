CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_c AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date >= DATE '2026-03-01' AND submission_date < DATE '2026-04-01'
GROUP BY submission_date;

CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_c_control AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date >= DATE '2026-02-22' AND submission_date < DATE '2026-03-01'
GROUP BY submission_date;

CREATE OR REPLACE TABLE backfill_staging.orders_daily__bf20260301_c_control_late AS
SELECT submission_date, COUNT(*) AS orders
FROM raw.orders
WHERE submission_date >= DATE '2026-02-15' AND submission_date < DATE '2026-02-22'  -- want BF104 "starts the SQL's range at 2026-02-15, not at range.start 2026-03-01" BF104 "ends the SQL's range before 2026-02-22"
GROUP BY submission_date;

-- A standalone file: any INSERT into a relation that is not staging appends.
INSERT INTO analytics.fct_orders (order_id, order_date, amount_minor)  -- want BF201 "INSERT into \"analytics.fct_orders\" appends: re-running the backfill adds the same rows again"
SELECT order_id, order_date, amount_minor
FROM backfill_staging.fct_orders__bf20260826_a
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- After a WITH query the finding still points at the written name.
WITH corrected AS (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_a
)
INSERT INTO
  analytics.fct_orders  -- want BF201 "INSERT into \"analytics.fct_orders\""
SELECT * FROM corrected;

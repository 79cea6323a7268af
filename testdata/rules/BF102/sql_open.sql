-- Standalone SQL: a lower bound with nothing above it runs up to today.
INSERT INTO analytics.fct_orders
SELECT * FROM raw.orders_events
WHERE order_date >= '2026-11-01';  -- want BF102 "\"order_date\" is bounded below here but not above: the INSERT of \"analytics.fct_orders\" covers every partition from this bound up to today"

CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20261130_c AS
WITH src AS (
  SELECT * FROM raw.orders_events
  WHERE event_time > TIMESTAMP '2026-11-01 00:00'  -- want BF102 "\"event_time\" is bounded below here but not above: the CREATE OR REPLACE of"
)
SELECT * FROM src;

-- Databricks' REPLACE WHERE: the predicate normalisation removes is read too.
INSERT INTO analytics.fct_orders
REPLACE WHERE order_date >= DATE '2026-11-01'  -- want BF102 "the REPLACE WHERE of \"analytics.fct_orders\""
SELECT * FROM backfill_staging.fct_orders__bf20261130_c;

MERGE INTO analytics.fct_orders AS t
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20261130_c
  WHERE order_date >= DATE '2026-11-01'  -- want BF102 "the MERGE of"
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);

DELETE FROM analytics.fct_orders WHERE order_date > '2026-10-31';  -- want BF102 "bounded below"

-- A look-back from the run's own date: run for a past date, the MERGE
-- reaches every newer partition, and its NOT MATCHED BY SOURCE deletes them.
MERGE INTO monitoring.flow_counts AS t
USING staged_counts AS s
  ON t.flow_id = s.flow_id AND t.submission_date = s.submission_date
WHEN NOT MATCHED BY SOURCE
  AND t.submission_date > DATE_SUB(@submission_date, INTERVAL 3 DAY) THEN DELETE;  -- want BF102 "bounded below here by a value computed from the run's parameter, and not above: run for a past date"

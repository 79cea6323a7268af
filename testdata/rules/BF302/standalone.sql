-- A standalone SQL file has no plan, so no range a rebuild could exceed:
-- a whole-table rewrite may be just what the file is for (a model's full
-- rebuild, a one-off repair), and BF302 does not read it.
TRUNCATE TABLE analytics.fct_orders;

DROP TABLE IF EXISTS analytics.fct_orders_old;

CREATE OR REPLACE TABLE analytics.fct_orders AS
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

INSERT OVERWRITE analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

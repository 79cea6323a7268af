-- Standalone SQL: no SQL rule reports the INSERT below yet in this fixture's
-- run, so the directive matches nothing.
-- want +1 BF004 "BF201 suppresses nothing"
-- bflint:ignore BF201 staging table is truncated first by the scheduler
INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

SELECT 1;  -- bflint:ignore BF20 -- want BF004 "\"BF20\" is not a bflint rule"

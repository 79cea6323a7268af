-- The directive names a rule with nothing to report on this statement (no
-- DELETE precedes the INSERT, so it cannot be a non-atomic replace).
-- want +1 BF004 "BF204 suppresses nothing"
-- bflint:ignore BF204 the scheduler truncates the table first
INSERT INTO backfill_staging.fct_orders__bf20260826_a SELECT * FROM raw.orders;

SELECT 1;  -- bflint:ignore BF20 -- want BF004 "\"BF20\" is not a bflint rule"

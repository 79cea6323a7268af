-- A plan's build: the first statement is read from its tokens (coverage,
-- no finding); nothing can be read from the second, and in a plan's SQL
-- that is an error, since the plan's safety cannot be checked.
CREATE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT order_id,, amount FROM raw.orders;

SELECT CASE WHEN THEN 'open' END AS status;  -- want BF002:error "cannot parse this statement at \"THEN\""

-- A standalone file: the bad statement is reported at the word that stops
-- the parser, and the statements around it are still read. Its tokens say
-- what it writes, so it is analysed from them and the finding is a warning.
SELECT order_id FROM analytics.fct_orders;

DELETE FROM backfill_staging.fct_orders__bf20260826_a
WHERE WHERE order_date = DATE '2026-01-14';  -- want BF002:warning "cannot parse this statement at \"WHERE\": syntax error at or near \"WHERE\"; it was analysed from its tokens instead"

SELECT 2;

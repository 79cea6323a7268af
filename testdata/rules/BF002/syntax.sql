-- A standalone file. The statement the parser stops on still names what it
-- writes, so it is read from its tokens: coverage, counted in the summary,
-- not a finding. The statements around it are read as usual.
SELECT order_id FROM analytics.fct_orders;

DELETE FROM backfill_staging.fct_orders__bf20260826_a
WHERE WHERE order_date = DATE '2026-01-14';

SELECT 2;

CREATE TABLE backfill_staging.fct_refunds__bf_e AS
SELECT * FROM analytics.fct_refunds WHERE refund_date = DATE '2026-03-01';

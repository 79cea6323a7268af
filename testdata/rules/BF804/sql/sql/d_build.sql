CREATE TABLE backfill_staging.customer_ltv__bf_d AS
SELECT customer_id, SUM(amount_minor) AS ltv_minor
FROM raw.orders_events
GROUP BY customer_id;

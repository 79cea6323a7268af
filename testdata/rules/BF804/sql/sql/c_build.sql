CREATE TABLE backfill_staging.orders_summary__bf_c AS
WITH o AS (SELECT customer_id, net_amount_minor FROM "ANALYTICS"."FCT_ORDERS")
SELECT customer_id, SUM(net_amount_minor) AS net_minor
FROM o
GROUP BY customer_id;

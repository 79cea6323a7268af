SELECT COUNT(*) AS delta
FROM backfill_staging.customer_ltv__bf_d AS s
JOIN analytics.fct_orders AS o ON o.customer_id = s.customer_id
WHERE s.ltv_minor < 0;

-- Old against new: reading both is how a control period is compared.
SELECT COUNT(*) AS changed_rows
FROM backfill_staging.fct_orders__bf20260826_a AS s
JOIN analytics.fct_orders AS t ON t.order_id = s.order_id
WHERE t.order_date BETWEEN DATE '2025-10-01' AND DATE '2025-12-31'
  AND s.net_amount_minor <> t.net_amount_minor;

SELECT COUNT(*) AS changed_rows
FROM backfill_staging.fct_orders__bf20260826_c AS s
JOIN analytics.fct_orders AS t USING (order_id)
WHERE t.order_date BETWEEN '2025-10-01' AND '2025-12-31'
  AND s.net_amount_minor <> t.net_amount_minor;

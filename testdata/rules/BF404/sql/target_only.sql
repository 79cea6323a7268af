SELECT COUNT(*) AS null_countries
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
  AND country IS NULL;

WITH published AS (
  SELECT order_id FROM prod.analytics.fct_orders WHERE amount_minor < 0
)
SELECT COUNT(*) AS n FROM published;

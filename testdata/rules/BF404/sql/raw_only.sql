SELECT COUNT(*) - COUNT(DISTINCT order_id) AS delta FROM raw.orders_events;

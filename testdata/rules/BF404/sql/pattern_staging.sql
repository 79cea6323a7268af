SELECT ABS(s.total - t.total) AS delta
FROM (SELECT SUM(net_amount_minor) AS total FROM backfill_staging.fct_orders__bf20260826_c) AS s
CROSS JOIN (SELECT SUM(net_amount_minor) AS total FROM analytics.fct_orders) AS t;

SELECT SUM(net_amount_minor) - 0 AS delta FROM analytics.fct_orders;

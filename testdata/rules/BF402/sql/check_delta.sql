-- The largest relative change of daily net revenue between staging and the
-- live table, in percent.
SELECT MAX(ABS(s.net_revenue - t.net_revenue) / NULLIF(t.net_revenue, 0)) * 100 AS max_abs_delta_pct  -- related BF402 "the query whose columns the criterion is compared with"
FROM backfill_staging.revenue_daily__bf20260826_r AS s
JOIN analytics.revenue_daily AS t USING (order_date);

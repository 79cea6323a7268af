-- Standalone: no plan names the partition column, but the MERGE matches or
-- updates the target on a partition-like column and then inserts without one.
MERGE INTO analytics.fct_orders AS t  -- want BF207 "MERGE into \"analytics.fct_orders\" matches or updates the target on \\(\"order_date\"\\) but inserts rows without it"
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id AND t.order_date = s.order_date
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, amount_minor) VALUES (s.order_id, s.amount_minor);

MERGE INTO analytics.page_views AS t  -- want BF207 "on \\(\"ds\"\\)"
USING backfill_staging.page_views__bf20260826_a AS s
  ON t.view_id = s.view_id
WHEN MATCHED THEN UPDATE SET t.ds = s.ds, t.url = s.url
WHEN NOT MATCHED THEN INSERT (view_id, url) VALUES (s.view_id, s.url);

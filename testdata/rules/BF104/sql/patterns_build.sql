CREATE TABLE backfill_staging.fct_orders__bf20260826_p AS
SELECT * FROM raw.orders_events
WHERE created >= '2020-01-01'
  AND order_date BETWEEN '2026-01-01'  -- want BF104 "starts the SQL's range at 2026-01-01, not at range.start 2026-01-14"
                     AND '2026-06-30';

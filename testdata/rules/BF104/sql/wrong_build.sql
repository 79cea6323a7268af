INSERT INTO backfill_staging.fct_orders__bf20260826_d
SELECT * FROM raw.orders_events
WHERE order_date >= '2026-01-14'
  AND order_date < '2026-06-30';  -- want BF104 "the bound \"order_date\" < '2026-06-30' ends the SQL's range before 2026-06-30, not after range.end 2026-06-30: .*; write order_date < '2026-07-01', the day after range.end"

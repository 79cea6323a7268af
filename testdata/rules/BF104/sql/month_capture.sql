CREATE TABLE backfill_rollback.revenue_monthly__bf20260826_m AS
SELECT * FROM analytics.revenue_monthly
WHERE order_month >= DATE '2026-01-15'  -- want BF104 "the bound \"order_month\" >= '2026-01-15' starts the SQL's range at 2026-01-15, not at range.start 2026-01: .*; write order_month >= DATE '2026-01-01'"
  AND order_month < DATE '2026-07-31';  -- want BF104 "ends the SQL's range before 2026-07-31, not after range.end 2026-06: .*; write order_month < DATE '2026-07-01', the month after range.end"

BEGIN;
DELETE FROM analytics.revenue_monthly WHERE order_month BETWEEN '2026-01-01' AND '2026-06-30';
INSERT INTO analytics.revenue_monthly
SELECT * FROM backfill_staging.revenue_monthly__bf20260826_m
WHERE order_month >= '2026-01' AND order_month <= '2026-06-01';
COMMIT;

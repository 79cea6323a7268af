-- Warehouse syntax that bflint normalises parses without a finding.
CREATE OR REPLACE TRANSIENT TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM `shop-prod.raw.orders_events` WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';

-- Standalone SQL: writes whose partition predicate follows the clock.
INSERT INTO analytics.fct_orders
SELECT * FROM raw.orders_events
WHERE order_date >= CURRENT_DATE - 7;  -- want BF102 "CURRENT_DATE in the predicate on \"order_date\" ties the INSERT of \"analytics.fct_orders\" to the day it runs"

DELETE FROM analytics.fct_orders
WHERE order_date > getdate() - 3;  -- want BF102 "getdate\\(\\) in the predicate on \"order_date\" ties the DELETE"

UPDATE analytics.fct_orders SET is_refunded = false
WHERE ds >= sysdate - 1;  -- want BF102 "sysdate in the predicate on \"ds\""

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20261130_a AS s
  ON t.order_id = s.order_id
 AND t.event_time >= now() - INTERVAL '3 days'  -- want BF102 "now\\(\\) in the predicate on \"event_time\" ties the MERGE"
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;

-- A build into staging recomputes whatever its predicate selects: both ends
-- move with the clock.
CREATE TABLE backfill_staging.fct_orders__bf20261130_b AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN CURRENT_DATE - 30  -- want BF102 "CURRENT_DATE .* CREATE TABLE AS of \"backfill_staging.fct_orders__bf20261130_b\""
                     AND CURRENT_DATE;  -- want BF102 "CURRENT_DATE"

-- The clock in a WITH query that feeds the insert.
INSERT INTO analytics.fct_orders
WITH recent AS (
  SELECT * FROM raw.orders_events
  WHERE date(event_time) >= date_sub(current_date(), 2)  -- want BF102 "current_date\\(\\) in the predicate on \"event_time\""
)
SELECT * FROM recent;

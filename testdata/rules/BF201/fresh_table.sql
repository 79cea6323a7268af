-- A table created afresh, or emptied, before it is filled holds only this
-- run's rows.
CREATE TEMPORARY TABLE corrected_orders (order_id bigint, order_date date);
INSERT INTO corrected_orders SELECT order_id, order_date FROM raw.orders_events;

CREATE OR REPLACE TABLE reports.orders_snapshot (order_id bigint, order_date date);
INSERT INTO reports.orders_snapshot SELECT order_id, order_date FROM raw.orders_events;

TRUNCATE TABLE reports.orders_daily;
INSERT INTO reports.orders_daily SELECT order_date, count(*) FROM raw.orders_events GROUP BY order_date;

-- Emptying another relation does not make this one a replace.
DELETE FROM reports.orders_weekly WHERE week = '2026-01-12';
INSERT INTO reports.orders_monthly  -- want BF201 "INSERT into \"reports.orders_monthly\" appends"
SELECT * FROM raw.orders_events;

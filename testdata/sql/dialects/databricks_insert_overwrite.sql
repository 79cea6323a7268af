-- Re-run the daily clickstream aggregation for 2024-02-10, one partition at
-- a time, as the scheduled job would.
USE CATALOG main;
USE SCHEMA web;

INSERT OVERWRITE TABLE main.web.daily_clicks PARTITION (event_date = '2024-02-10')
SELECT page_id, COUNT(*) AS clicks, COUNT(DISTINCT user_id) AS users
FROM main.web.click_events
WHERE event_date = '2024-02-10'
  AND user_agent NOT RLIKE '(?i)bot|crawler'
GROUP BY page_id;

INSERT OVERWRITE main.web.daily_clicks PARTITION (event_date)
SELECT page_id, COUNT(*) AS clicks, COUNT(DISTINCT user_id) AS users, event_date
FROM main.web.click_events
WHERE event_date BETWEEN '2024-02-10' AND '2024-02-12'
GROUP BY page_id, event_date;

-- Hive style: static partition, appending.
INSERT INTO TABLE main.web.click_audit PARTITION (run_date = '2024-02-12')
SELECT 'daily_clicks' AS table_name, COUNT(*) AS row_count, current_timestamp() AS checked_at
FROM main.web.daily_clicks
WHERE event_date BETWEEN '2024-02-10' AND '2024-02-12';

-- Whole-table rewrite of a small lookup.
INSERT OVERWRITE `main`.`web`.`page_lookup`
SELECT page_id, lower(trim(page_path)) AS page_path
FROM `main`.`web`.`pages`
QUALIFY row_number() OVER (PARTITION BY page_id ORDER BY updated_at DESC) = 1;

TRUNCATE TABLE main.web.daily_clicks_scratch PARTITION (event_date = '2024-02-10');

SELECT event_date, SUM(clicks) AS clicks
FROM main.web.daily_clicks
WHERE event_date >= date_sub(current_date(), 3)
GROUP BY ALL;

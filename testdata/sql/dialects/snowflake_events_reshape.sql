-- Rebuild one week of web events from the raw VARIANT feed, reshaped for
-- reporting.
CREATE OR REPLACE TRANSIENT TABLE analytics.backfill_staging.web_events_2024w03 AS
SELECT
    e.payload :event_id :: string AS event_id,
    e.payload :session_id :: string AS session_id, // absent before the app's 4.2 release
    e.payload: context: page: url :: string AS page_url,
    PARSE_URL(e.payload:context:page:url::string):parameters:utm_source::string AS utm_source,
    e.payload :"EventTime" :: timestamp_ntz AS event_ts,
    {'source': 'backfill', 'week': '2024w03'} AS load_info
FROM raw.web.events AS e
WHERE e.payload :"EventTime" :: date BETWEEN '2024-01-15' AND '2024-01-21';

-- Health checks and crawlers are no visits.
DELETE FROM analytics.backfill_staging.web_events_2024w03
WHERE page_url ILIKE ANY ('%/health%', '%/robots.txt')
   OR page_url LIKE ANY (SELECT url_pattern FROM analytics.core.excluded_pages);

-- The week's sessions, matched to its events in the WHERE: Snowflake reads
-- a join without ON as a cross join.
INSERT INTO analytics.backfill_staging.web_sessions_2024w03 (session_id, started_at, events)
SELECT s.session_id, s.started_at, COUNT(*) AS events
FROM analytics.backfill_staging.web_events_2024w03 AS e
JOIN raw.web.sessions s
WHERE s.session_id = e.session_id
  AND s.started_at >= '2024-01-15'
GROUP BY s.session_id, s.started_at;

-- Pages viewed in those sessions, joined on the session's key.
SELECT s.session_id, COUNT(DISTINCT e.page_url) AS pages
FROM analytics.backfill_staging.web_sessions_2024w03 AS s
JOIN analytics.backfill_staging.web_events_2024w03 AS e USING (s.session_id)
GROUP BY s.session_id;

-- The week's funnel, one row per step.
SELECT step, visitors
FROM analytics.backfill_staging.web_funnel_2024w03
UNPIVOT (visitors FOR step IN (landed, signed_up, activated));

-- Events per day and source, one column per source.
SELECT *
FROM (
    SELECT event_ts::date AS visit_date, utm_source, event_id
    FROM analytics.backfill_staging.web_events_2024w03
)
PIVOT (COUNT(event_id) FOR utm_source IN ('google', 'newsletter', 'direct')) AS p;

-- Each page's top-level section, walking the site's page tree.
CREATE OR REPLACE TEMPORARY TABLE analytics.backfill_staging.page_sections AS
SELECT page_id, CONNECT_BY_ROOT page_id AS section_id, LEVEL AS depth
FROM raw.web.pages
START WITH parent_page_id IS NULL
CONNECT BY PRIOR page_id = parent_page_id;

-- Each session's landing page, the first it viewed.
SELECT session_id, ARRAY_AGG(page_url) WITHIN GROUP (ORDER BY event_ts)[0]::string AS landing_page
FROM analytics.backfill_staging.web_events_2024w03
GROUP BY session_id;

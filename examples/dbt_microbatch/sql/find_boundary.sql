-- The daily share of sessions with more than 200 page views, which people
-- rarely reach and crawlers always do: it steps up on the first bad day.
SELECT
    session_date,
    AVG(CASE WHEN page_views > 200 THEN 1.0 ELSE 0.0 END) AS heavy_share
FROM analytics.fct_sessions
WHERE session_date BETWEEN DATE '2026-02-15' AND DATE '2026-03-15'
GROUP BY session_date
ORDER BY session_date;

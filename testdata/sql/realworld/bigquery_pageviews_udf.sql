-- Re-derive page views for a window of days given as parameters
-- (@run_date, @lookback_days), with a JavaScript UDF that parses the
-- legacy tracking header, and a snapshot of the target taken first.

CREATE SNAPSHOT TABLE `acme-analytics.backups.pageviews_before_fix`
CLONE `acme-analytics.reporting.pageviews`
FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR)
OPTIONS (expiration_timestamp = TIMESTAMP '2024-07-01 00:00:00 UTC');

CREATE TEMP FUNCTION parse_tracking(header STRING)
RETURNS STRUCT<campaign STRING, medium STRING, hops ARRAY<INT64>>
LANGUAGE js
AS r"""
  // The header looks like "utm=spring;med=email;hops=3,5"; a bad one
  // yields nulls rather than failing the query.
  const out = {campaign: null, medium: null, hops: []};
  if (!header) return out;
  for (const part of header.split(";")) {
    const [k, v] = part.split("=");
    if (k === "utm") out.campaign = v;
    if (k === "med") out.medium = v;
    if (k === "hops") out.hops = v.split(",").map(Number);
  }
  return out;
""";

CREATE TEMP FUNCTION clean_path(path STRING) AS (
  REGEXP_REPLACE(LOWER(path), r'/+$|\?.*$', '')
);

CREATE TEMP FUNCTION is_bot(agent STRING)
RETURNS BOOL
LANGUAGE js
AS """
  return /bot|crawl|spider/i.test(agent || '');
""";

CREATE OR REPLACE TABLE `acme-analytics.backfill_staging.pageviews_fix`
PARTITION BY view_date
AS
SELECT
  DATE(v.viewed_at) AS view_date,
  v.visitor_id,
  clean_path(v.path) AS path,
  SPLIT(clean_path(v.path), '/')[OFFSET(1)] AS section,
  parse_tracking(v.tracking_header).campaign AS campaign,
  parse_tracking(v.tracking_header).medium AS medium,
  REGEXP_EXTRACT(v.referrer, r'^https?://([^/]+)') AS referrer_host,
  IF(v.title LIKE '%Editor\'s pick%', 'editorial', 'standard') AS page_kind,
  '''Imported by the pageviews backfill; see the "fix" ticket.''' AS note
FROM `acme-analytics.raw.pageviews` AS v
WHERE DATE(v.viewed_at) BETWEEN DATE_SUB(@run_date, INTERVAL @lookback_days DAY) AND @run_date
  AND NOT is_bot(v.user_agent);

-- The same window as it stood before the fix, for the comparison check.
SELECT
  f.view_date,
  COUNT(*) AS views_after,
  ANY_VALUE(b.views_before) AS views_before
FROM `acme-analytics.backfill_staging.pageviews_fix` AS f
LEFT JOIN (
  SELECT DATE(viewed_at) AS view_date, COUNT(*) AS views_before
  FROM `acme-analytics.reporting.pageviews`
    FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 2 HOUR)
  WHERE DATE(viewed_at) BETWEEN DATE_SUB(@run_date, INTERVAL @lookback_days DAY) AND @run_date
  GROUP BY 1
) AS b USING (view_date)
GROUP BY f.view_date;

DELETE `acme-analytics.reporting.pageviews`
WHERE view_date BETWEEN DATE_SUB(@run_date, INTERVAL @lookback_days DAY) AND @run_date;

INSERT `acme-analytics.reporting.pageviews` (view_date, visitor_id, path, campaign, medium, referrer_host, page_kind)
SELECT view_date, visitor_id, path, campaign, medium, referrer_host, page_kind
FROM `acme-analytics.backfill_staging.pageviews_fix`;

-- Typed constructors in a check of the header parser.
SELECT
  parse_tracking('utm=spring;med=email;hops=3,5') = STRUCT<campaign STRING, medium STRING, hops ARRAY<INT64>>('spring', 'email', ARRAY<INT64>[3, 5]) AS parser_ok,
  ARRAY<STRING>['a\'b', "it\"s"] AS escaped;

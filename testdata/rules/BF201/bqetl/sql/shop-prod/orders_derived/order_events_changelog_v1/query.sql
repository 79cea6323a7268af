-- bqetl appends what this query returns: a re-run of a day adds the day
-- again.
SELECT  -- want BF201 "the query of \"shop-prod.orders_derived.order_events_changelog_v1\" is appended to the table \\(--append_table in its metadata.yaml\\)"
  event_id,
  order_id,
  submission_date
FROM
  `shop-prod.orders_stable.events_v1`
WHERE
  submission_date = @submission_date

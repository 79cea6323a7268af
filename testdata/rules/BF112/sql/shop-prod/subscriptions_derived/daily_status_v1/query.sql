-- The clock only stamps the run (an audit column), refuses dates whose
-- source rows have expired (ERROR), and stands in for the parameter when
-- it is not given: none of them decides the rows of a partition.
SELECT
  subscription_id,
  @submission_date AS submission_date,
  status,
  CURRENT_TIMESTAMP() AS loaded_at
FROM
  `shop-prod.subscriptions_derived.status_events_v1`
WHERE
  event_date = COALESCE(@submission_date, CURRENT_DATE)
  AND IF(DATE_DIFF(CURRENT_DATE(), @submission_date, DAY) > 30, ERROR("source rows older than 30 days are deleted"), NULL) IS NULL

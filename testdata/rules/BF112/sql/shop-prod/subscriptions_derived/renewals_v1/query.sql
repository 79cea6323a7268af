-- Each run reads every renewal up to today, not up to the date it is
-- run for.
SELECT
  s.subscription_id,
  @submission_date AS submission_date,
  MAX(s.renewed_on) AS last_renewal
FROM
  `shop-prod.subscriptions_derived.renewal_events_v1` AS s
WHERE
  s.renewed_on <= CURRENT_DATE  -- want BF112 "compares s.renewed_on with CURRENT_DATE"
GROUP BY
  1

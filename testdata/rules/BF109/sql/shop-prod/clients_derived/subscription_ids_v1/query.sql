-- depends_on_past only orders the runs: no partition reads the one before.
SELECT DISTINCT
  subscription_id,
  @submission_date AS active_date
FROM
  subscriptions.active_subscriptions
WHERE
  active_date = @submission_date

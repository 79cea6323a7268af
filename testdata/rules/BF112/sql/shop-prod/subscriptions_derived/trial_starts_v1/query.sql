-- Whether a trial is still running is read from the day of the run: a
-- backfill of a past date calls every trial that ended since then over.
SELECT
  subscription_id,
  @date AS date,
  IF(trial_end > TIMESTAMP(CURRENT_DATE), trial_start, started_at) AS effective_start  -- want BF112 "the query compares trial_end with CURRENT_DATE, but shop-prod.subscriptions_derived.trial_starts_v1 computes one partition per run, for the date in @date"
FROM  -- related -1 BF112 "compares trial_end against CURRENT_DATE"
  `shop-prod.subscriptions_derived.subscriptions_v1`
WHERE
  DATE(started_at) = @date

-- The first build (is_init) reads everything up to today; the scheduled
-- run and a backfill read the date they are given.
SELECT
  plan_id,
  DATE(changed_at) AS date,
  price
FROM
  `shop-prod.subscriptions_derived.plan_changes_v1`
WHERE
  {% if is_init() %}
    DATE(changed_at) < CURRENT_DATE()
  {% else %}
    DATE(changed_at) = @date
  {% endif %}

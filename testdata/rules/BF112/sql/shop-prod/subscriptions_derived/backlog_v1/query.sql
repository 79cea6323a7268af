-- Written whole on every run (date_partition_parameter: null): the clock
-- is the only date it has.
SELECT
  CURRENT_DATE AS snapshot_date,
  COUNT(*) AS open_tickets
FROM
  `shop-prod.subscriptions_derived.tickets_v1`
WHERE
  opened_on <= CURRENT_DATE

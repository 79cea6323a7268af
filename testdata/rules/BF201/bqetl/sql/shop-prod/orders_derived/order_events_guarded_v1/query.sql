-- Appended, but only what is newer than the newest row the table holds:
-- a re-run adds nothing twice.
SELECT
  event_id,
  order_id,
  synced_at
FROM
  `shop-prod.orders_stable.events_v1`
WHERE
  synced_at > COALESCE(
    (SELECT MAX(synced_at) FROM `shop-prod`.orders_derived.order_events_guarded_v1),
    '0001-01-01'
  )

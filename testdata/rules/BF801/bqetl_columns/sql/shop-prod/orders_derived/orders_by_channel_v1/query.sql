-- Created after the 2026-04-02 correction of orders_v1 (see history.txt):
-- every partition it holds was computed from corrected rows.
SELECT
  submission_date,
  channel,
  COUNT(*) AS orders
FROM
  `shop-prod.orders_derived.orders_v1`
WHERE
  submission_date = @submission_date
GROUP BY
  submission_date,
  channel

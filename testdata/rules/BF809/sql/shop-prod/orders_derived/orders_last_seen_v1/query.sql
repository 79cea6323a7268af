-- Yesterday's partition carried forward one day, with today's orders as
-- the newest bit of a 28-day history.
WITH today AS (
  SELECT customer_id, 1 AS days_ordered_bits
  FROM `shop-prod.orders_derived.orders_v1`
  WHERE submission_date = @submission_date
),
yesterday AS (
  SELECT customer_id, days_ordered_bits
  FROM `shop-prod.orders_derived.orders_last_seen_v1`
  WHERE submission_date = DATE_SUB(@submission_date, INTERVAL 1 DAY)
)
SELECT
  COALESCE(today.customer_id, yesterday.customer_id) AS customer_id,
  `shop-prod.udf.combine_adjacent_days_28_bits`(yesterday.days_ordered_bits, today.days_ordered_bits) AS days_ordered_bits,
  @submission_date AS submission_date
FROM today
FULL JOIN yesterday USING (customer_id)

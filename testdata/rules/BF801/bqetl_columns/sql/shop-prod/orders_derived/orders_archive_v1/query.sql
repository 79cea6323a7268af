-- No longer maintained: needs no entry.
SELECT
  *
FROM
  orders_derived.orders_v1
WHERE
  submission_date = @submission_date

SELECT COUNT(*) AS orders, SUM(amount) AS amount, @submission_date AS submission_date
FROM `shop-prod.orders_derived.orders_v1`
WHERE submission_date = @submission_date

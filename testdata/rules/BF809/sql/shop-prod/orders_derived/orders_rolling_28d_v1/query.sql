-- Each partition counts the 28 days up to it.
SELECT customer_id, SUM(amount) AS amount_28d, @submission_date AS submission_date
FROM `shop-prod.orders_derived.orders_v1`
WHERE submission_date BETWEEN DATE_SUB(@submission_date, INTERVAL 27 DAY) AND @submission_date
GROUP BY customer_id

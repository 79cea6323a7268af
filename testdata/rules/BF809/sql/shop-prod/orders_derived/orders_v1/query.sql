SELECT order_id, customer_id, amount, @submission_date AS submission_date
FROM `shop-prod.orders_stable.orders_v1`
WHERE DATE(submitted_at) = @submission_date

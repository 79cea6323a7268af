-- Written whole on every run: the next run recomputes it.
SELECT COUNT(*) AS orders FROM orders_derived.orders_v1

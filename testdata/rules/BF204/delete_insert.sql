-- Each statement commits on its own: between them the range is empty.
DELETE FROM analytics.fct_orders  -- want BF204:warning "DELETE from \"analytics.fct_orders\" and the INSERT into it are not in one transaction: readers see the range empty in between"
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO analytics.fct_orders  -- related BF204 "refills \"analytics.fct_orders\" outside the DELETE's transaction"
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

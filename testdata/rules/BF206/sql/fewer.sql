-- The range predicate is no key column and is not counted.
MERGE INTO analytics.fct_order_lines AS t  -- want BF206:error "MERGE into \"analytics.fct_order_lines\" matches rows on \\(\"order_id\"\\), but rerun.key is \\(\"order_id\", \"line_no\"\\)"
USING backfill_staging.fct_order_lines__bf20260826_a AS s
  ON t.order_id = s.order_id
 AND t.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, line_no, order_date, amount_minor)
  VALUES (s.order_id, s.line_no, s.order_date, s.amount_minor);

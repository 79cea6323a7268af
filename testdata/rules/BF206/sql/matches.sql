MERGE INTO analytics.fct_order_lines AS t
USING backfill_staging.fct_order_lines__bf20260826_d AS s
  ON s.LINE_NO = t.line_no
 AND t.Order_ID = s.order_id
 AND t.region = 'eu'
 AND t.order_date >= DATE '2026-01-14'
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;

INSERT INTO analytics.fct_order_lines (order_id, line_no, amount_minor)
SELECT order_id, line_no, amount_minor FROM backfill_staging.fct_order_lines__bf20260826_d
ON CONFLICT (line_no, order_id) DO UPDATE SET amount_minor = EXCLUDED.amount_minor;

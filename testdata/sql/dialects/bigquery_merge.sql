-- Upsert corrected subscriptions; the source only holds March.
MERGE `acme-analytics.reporting.subscriptions` T
USING (
  SELECT * EXCEPT (row_num)
  FROM (
    SELECT s.*, ROW_NUMBER() OVER (PARTITION BY subscription_id ORDER BY updated_at DESC) AS row_num
    FROM `acme-analytics.backfill_staging.subscriptions_fix` AS s
    WHERE change_date BETWEEN '2024-03-01' AND '2024-03-31'
  )
  WHERE row_num = 1
) S
ON T.subscription_id = S.subscription_id
WHEN MATCHED AND S.is_deleted THEN
  DELETE
WHEN MATCHED THEN
  UPDATE SET T.plan = S.plan, T.mrr = S.mrr, T.updated_at = CURRENT_TIMESTAMP()
WHEN NOT MATCHED BY TARGET AND S.change_date BETWEEN '2024-03-01' AND '2024-03-31' THEN
  INSERT ROW
WHEN NOT MATCHED BY SOURCE AND T.change_date BETWEEN '2024-03-01' AND '2024-03-31' THEN
  DELETE;

MERGE INTO `acme-analytics.reporting.plan_prices` AS T
USING `acme-analytics.backfill_staging.plan_prices_fix` AS S
ON T.plan = S.plan AND T.valid_from = S.valid_from
WHEN MATCHED THEN UPDATE SET price = S.price
WHEN NOT MATCHED THEN INSERT VALUES (S.plan, S.valid_from, S.price);

-- Close rows that vanished from the source in the corrected range.
MERGE `acme-analytics.reporting.plan_prices` T
USING `acme-analytics.backfill_staging.plan_prices_fix` S
ON T.plan = S.plan
WHEN NOT MATCHED BY SOURCE AND T.valid_from >= '2024-03-01' THEN
  UPDATE SET valid_to = CURRENT_DATE('UTC');

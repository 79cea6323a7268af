MERGE WITH SCHEMA EVOLUTION INTO main.crm.customers AS t
USING main.crm_staging.customers_fix AS s
ON t.customer_id = s.customer_id
WHEN MATCHED AND s._op = 'DELETE' THEN DELETE
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED THEN INSERT *;

MERGE INTO main.crm.customer_segments AS t
USING (
  SELECT customer_id, segment, valid_from
  FROM main.crm_staging.segments_fix
  WHERE valid_from BETWEEN '2024-02-01' AND '2024-02-29'
) AS s
ON t.customer_id = s.customer_id AND t.valid_from = s.valid_from
WHEN MATCHED THEN UPDATE SET t.segment = s.segment
WHEN NOT MATCHED BY TARGET THEN INSERT (customer_id, segment, valid_from) VALUES (s.customer_id, s.segment, s.valid_from)
WHEN NOT MATCHED BY SOURCE AND t.valid_from BETWEEN '2024-02-01' AND '2024-02-29' THEN DELETE;

-- Close the open version of rows that changed.
MERGE INTO main.crm.customer_history AS h
USING main.crm_staging.customers_fix AS s
ON h.customer_id = s.customer_id AND h.valid_to IS NULL
WHEN MATCHED AND h.row_hash <> s.row_hash THEN
  UPDATE SET h.valid_to = s.updated_at, h.is_current = false;

-- Snowflake: COPY INTO loads the staged files again on every forced run.
COPY INTO analytics.fct_orders  -- want BF201 "COPY into \"analytics.fct_orders\" appends"
FROM @backfill_stage/fct_orders/2026-01-14/
FILE_FORMAT = (TYPE = PARQUET);

-- Loading into staging is fine.
COPY INTO backfill_staging.fct_orders__bf20260826_a
FROM @backfill_stage/fct_orders/2026-01-14/
FILE_FORMAT = (TYPE = PARQUET);

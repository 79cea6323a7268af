SELECT 1;
-- want +1 BF002 "cannot read the SQL from here to the end of the file: unterminated string"
INSERT INTO backfill_staging.t SELECT * FROM raw.orders WHERE order_date >= '2026-01-14;
SELECT 3;

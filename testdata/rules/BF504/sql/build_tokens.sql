MERGE INTO analytics.fct_trade_quotes AS f  -- want BF504 "the build writes the target \"analytics.fct_trade_quotes\" \\(MERGE\\): .*\\(analysed from tokens: the statement did not parse\\)"
USING (
  SELECT t.trade_id, t.trade_date, q.bid
  FROM raw.trades AS t
  ASOF JOIN raw.quotes AS q
    MATCH_CONDITION (t.traded_at >= q.quoted_at)
    ON t.symbol = q.symbol
  WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30'
) AS s
  ON f.trade_id = s.trade_id
WHEN MATCHED THEN UPDATE SET bid = s.bid
WHEN NOT MATCHED THEN INSERT (trade_id, trade_date, bid) VALUES (s.trade_id, s.trade_date, s.bid);

-- Staging itself is where the build belongs.
CREATE OR REPLACE TABLE backfill_staging.fct_trade_quotes__bf20260826_t AS
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

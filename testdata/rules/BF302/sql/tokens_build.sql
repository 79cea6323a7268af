-- Into staging, a rebuild is how a build starts, even from a query bflint
-- cannot parse (Snowflake's ASOF JOIN ... MATCH_CONDITION).
CREATE OR REPLACE TABLE backfill_staging.fct_trade_quotes__bf20260826_t AS
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

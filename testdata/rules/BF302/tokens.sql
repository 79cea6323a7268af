-- Rebuilding a table from a query bflint cannot parse (Snowflake's ASOF
-- JOIN ... MATCH_CONDITION) is still a rebuild: the statement's tokens say
-- what it replaces.
CREATE OR REPLACE TABLE analytics.fct_trade_quotes AS  -- want BF302 "CREATE OR REPLACE replaces the whole of \"analytics.fct_trade_quotes\", which is not staging: .*\\(analysed from tokens: the statement did not parse\\)$"
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol;

-- Into staging it is how a build starts.
CREATE OR REPLACE TABLE backfill_staging.fct_trade_quotes__bf20260826_a AS
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

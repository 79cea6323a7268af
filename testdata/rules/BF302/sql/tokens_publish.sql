-- Rebuilding the target from a query bflint cannot parse is still a
-- rebuild: the statement's tokens say what it replaces.
CREATE OR REPLACE TABLE analytics.fct_trade_quotes AS  -- want BF302 "CREATE OR REPLACE replaces the whole of the target \"analytics.fct_trade_quotes\".*\\(analysed from tokens: the statement did not parse\\)$"
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol;

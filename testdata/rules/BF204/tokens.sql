-- The INSERT does not parse (Snowflake's ASOF JOIN ... MATCH_CONDITION), but
-- its tokens show it refills the range the DELETE emptied, in a commit of
-- its own.
DELETE FROM analytics.fct_trade_quotes  -- want BF204 "DELETE from \"analytics.fct_trade_quotes\" and the INSERT into it are not in one transaction: .*\\(analysed from tokens: the statement did not parse\\)"
WHERE trade_date BETWEEN '2026-01-14' AND '2026-06-30';
INSERT INTO analytics.fct_trade_quotes  -- related BF204 "refills"
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

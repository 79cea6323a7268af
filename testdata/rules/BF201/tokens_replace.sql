-- The range is emptied first, so the INSERT read from its tokens replaces
-- it rather than appending (whether the pair is atomic is BF204's concern).
DELETE FROM analytics.fct_trade_quotes
WHERE trade_date BETWEEN '2026-01-14' AND '2026-06-30';

INSERT INTO analytics.fct_trade_quotes
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

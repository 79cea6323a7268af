-- Snowflake's ASOF JOIN ... MATCH_CONDITION has no PostgreSQL form, so these
-- statements do not parse. bflint reads them from their tokens: what they
-- write is still checked, and the finding says how it was read.
INSERT INTO analytics.fct_trade_quotes  -- want BF201 "INSERT into \"analytics.fct_trade_quotes\" appends: .* \\(analysed from tokens: the statement did not parse\\)"
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

-- Staging is free to append to, whichever way the statement is read.
INSERT INTO backfill_staging.fct_trade_quotes__bf20260826_a
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

-- Guards are read from tokens as from a parse tree: the same appends with
-- NOT EXISTS, an anti-join or a strict watermark insert nothing twice.
INSERT INTO analytics.fct_trade_quotes
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE NOT EXISTS (SELECT 1 FROM analytics.fct_trade_quotes AS f WHERE f.trade_id = t.trade_id);

INSERT INTO analytics.fct_trade_quotes
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
LEFT JOIN analytics.fct_trade_quotes AS f ON f.trade_id = t.trade_id
WHERE f.trade_id IS NULL;

INSERT INTO analytics.fct_trade_quotes
WITH loaded AS (SELECT MAX(traded_at) AS upto FROM analytics.fct_trade_quotes)
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN loaded AS l ON TRUE
WHERE t.traded_at > l.upto;

-- A watermark with >= reads the boundary rows again, whichever reader.
INSERT INTO analytics.fct_trade_quotes  -- want BF201 "appends: .* \\(analysed from tokens"
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.traded_at >= (SELECT MAX(traded_at) FROM analytics.fct_trade_quotes);

-- Statements bflint cannot parse: Snowflake's ASOF JOIN ... MATCH_CONDITION,
-- and a Databricks lambda. Their conditions are still read: each is parsed
-- on its own where it can be, and read from its tokens where it cannot.
INSERT INTO backfill_staging.fct_trade_quotes__bf20260826_a
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date >= CURRENT_DATE - 7;  -- want BF102 "CURRENT_DATE in the predicate on \"trade_date\" ties the INSERT of \"backfill_staging.fct_trade_quotes__bf20260826_a\" to the day it runs: .*\\(analysed from tokens: the statement did not parse\\)"

INSERT INTO backfill_staging.fct_trade_quotes__bf20260826_a
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date >= '2026-01-14';  -- want BF102 "\"trade_date\" is bounded below here but not above: .*\\(analysed from tokens: the statement did not parse\\)"

-- The condition does not parse even on its own, so its tokens are read.
DELETE FROM backfill_staging.fct_trades__bf20260826_a
WHERE EXISTS(fills, f -> f.fill_date >= CURRENT_DATE - 7);  -- want BF102 "CURRENT_DATE in the predicate on \"fill_date\""

-- Bounded on both sides with literal dates: nothing to report.
INSERT INTO backfill_staging.fct_trade_quotes__bf20260826_a
SELECT t.trade_id, t.trade_date, q.bid
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE t.trade_date BETWEEN '2026-01-14' AND '2026-06-30';

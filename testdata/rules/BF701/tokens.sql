-- Snowflake's ASOF JOIN ... MATCH_CONDITION does not parse; the statement's
-- other joins and their conditions are read from its tokens.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d  -- want BF701 "join to type-2 dimension \"dim.customer_history\" \\(alias \"d\"\\) compares \"d.valid_from\" but not \"d.valid_to\" with the other side: .*\\(analysed from tokens: the statement did not parse\\)$"
  ON d.customer_id = t.customer_id
  AND t.traded_at >= d.valid_from
WHERE d.valid_to IS NOT NULL;

-- A predicate on the dimension that does not parse even on its own (a
-- Databricks lambda) may hold the missing bound: nothing is reported
-- rather than a guess.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d
  ON d.customer_id = t.customer_id
  AND t.traded_at >= d.valid_from
  AND EXISTS(d.periods, p -> t.traded_at < p.valid_to);

-- Snowflake's ASOF JOIN ... MATCH_CONDITION does not parse; the closed
-- validity interval is read from the statement's tokens.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d  -- want BF703 "join to type-2 dimension \"dim.customer_history\" \\(alias \"d\"\\) closes the validity interval with BETWEEN d.valid_from AND d.valid_to: .*\\(analysed from tokens: the statement did not parse\\)$"
  ON d.customer_id = t.customer_id
  AND t.traded_at BETWEEN d.valid_from AND d.valid_to;

-- Half-open: nothing to report.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d
  ON d.customer_id = t.customer_id
  AND t.traded_at >= d.valid_from
  AND t.traded_at < d.valid_to;

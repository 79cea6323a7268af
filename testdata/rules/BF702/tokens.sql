-- Snowflake's ASOF JOIN ... MATCH_CONDITION does not parse; the current-row
-- filter on the dimension is read from the statement's tokens.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d  -- want BF702 "join to type-2 dimension \"dim.customer_history\" \\(alias \"d\"\\) keeps only its current version \\(d.is_current\\): .*\\(analysed from tokens: the statement did not parse\\)$"
  ON d.customer_id = t.customer_id
WHERE d.is_current;

-- The version valid at the trade: nothing to report.
SELECT t.trade_id, q.bid, d.country
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN dim.customer_history AS d
  ON d.customer_id = t.customer_id
  AND t.traded_at >= d.valid_from
  AND t.traded_at < d.valid_to;

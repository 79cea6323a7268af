-- Snowflake's ASOF JOIN ... MATCH_CONDITION does not parse; the snapshot's
-- NULL valid_to is still seen compared without COALESCE.
SELECT t.trade_id, q.bid, s.segment
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN snapshots.customers_snapshot AS s  -- want BF704 "inner join to dbt snapshot \"snapshots.customers_snapshot\" \\(alias \"s\"\\) compares \"s.dbt_valid_to\" without handling NULL.*\\(analysed from tokens: the statement did not parse\\)$"
  ON s.customer_id = t.customer_id
  AND t.traded_at >= s.dbt_valid_from
  AND t.traded_at < s.dbt_valid_to;

-- NULL handled with COALESCE: nothing to report.
SELECT t.trade_id, q.bid, s.segment
FROM raw.trades AS t
ASOF JOIN raw.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = t.customer_id
  AND t.traded_at >= s.dbt_valid_from
  AND t.traded_at < COALESCE(s.dbt_valid_to, '9999-12-31');

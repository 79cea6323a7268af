-- ASOF JOIN has no PostgreSQL form: the query is read from its tokens,
-- and its conditions that parse on their own still show the clock.
SELECT
  t.trade_id,
  @submission_date AS submission_date,
  CURRENT_TIMESTAMP() AS loaded_at,  -- an audit column: it decides no row, read from tokens too
  IF(t.settled_at < CURRENT_TIMESTAMP(), 'settled', 'open') AS state  -- want BF112 "compares t.settled_at with CURRENT_TIMESTAMP.*\\(analysed from tokens: the statement did not parse\\)"
FROM
  shop.trades AS t
ASOF JOIN shop.quotes AS q
  MATCH_CONDITION (t.traded_at >= q.quoted_at)
  ON t.symbol = q.symbol
WHERE
  DATE(t.traded_at) = @submission_date
  AND t.expires_at > CURRENT_DATE()  -- want BF112 "compares t.expires_at with CURRENT_DATE.*analysed from tokens"

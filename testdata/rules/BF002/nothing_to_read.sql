-- Nothing in this statement names a relation, so its tokens say nothing
-- the rules could check either: it stays an error.
SELECT CASE WHEN THEN 'open' END AS status;  -- want BF002:error "cannot parse this statement at \"THEN\": syntax error at or near \"THEN\"; nothing it writes or joins could be read from its tokens either"

-- Nothing in this statement names a relation, so its tokens say nothing
-- the rules could check either. In a standalone file that is a warning.
SELECT CASE WHEN THEN 'open' END AS status;  -- want BF002:warning "cannot parse this statement at \"THEN\": syntax error at or near \"THEN\"; nothing it writes or joins could be read from its tokens either"

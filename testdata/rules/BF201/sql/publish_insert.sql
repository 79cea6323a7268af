INSERT INTO analytics.fct_orders  -- want BF201 "INSERT into \"analytics.fct_orders\" appends"
SELECT * FROM scratch.fct_orders__bf20260826_f;

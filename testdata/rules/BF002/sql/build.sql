CREATE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT order_id,, amount FROM raw.orders;  -- want BF002:warning "at \",\": syntax error at or near \",\"; it was analysed from its tokens"

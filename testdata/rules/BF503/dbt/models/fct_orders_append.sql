-- Configured in dbt_project.yml: incremental, incremental_strategy append.
select order_id, order_date, amount_minor  -- want BF201 "dbt model \"model.shop.fct_orders_append\" \\(configured outside the file, as the manifest records it\\) is incremental with incremental_strategy append: every run inserts its rows again.*; use merge with a unique_key, or use microbatch$"
from {{ ref('stg_orders') }}

select distinct order_date from {{ ref('fct_orders') }}

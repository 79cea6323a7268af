{{ config(materialized='view') }}

select
    r.revenue_date,
    sum(r.gross_revenue) as gross_revenue,
    sum(r.orders) as orders,
    sum(r.gross_revenue) / nullif(sum(r.orders), 0) as average_order_value
from {{ latest_partitions(ref('fct_daily_revenue'), days=90) }} as r
group by r.revenue_date

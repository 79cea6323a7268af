select date_trunc('month', order_date) as order_month, sum(revenue_minor) as revenue_minor
from {{ ref('revenue_daily') }}
group by 1

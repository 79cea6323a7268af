select order_date, sum(amount_minor) as revenue_minor
from {{ ref('int_orders') }}
group by order_date

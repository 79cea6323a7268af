select order_date, count(*) as orders
from {{ ref('stg_orders') }}
group by order_date

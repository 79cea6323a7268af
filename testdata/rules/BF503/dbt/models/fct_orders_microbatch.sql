select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

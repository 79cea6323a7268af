-- Configured in a properties file: merge on order_id.
select order_id, order_date, amount_minor
from {{ ref('stg_orders') }}

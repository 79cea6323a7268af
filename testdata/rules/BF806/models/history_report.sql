select *, current_date as seen from {{ ref('orders_history') }}

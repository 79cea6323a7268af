select order_id, order_date, amount from {{ source('raw', 'orders') }}

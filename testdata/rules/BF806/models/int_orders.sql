select order_id, order_date, amount_minor from {{ ref('fct_orders') }}
where status <> 'refunded'

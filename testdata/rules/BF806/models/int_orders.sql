select order_id, order_date, amount_minor from {{ ref('fct_orders') }}  -- related BF806 "changed after the manifest was written"
where status <> 'refunded'

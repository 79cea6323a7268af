select order_date, sum(doubled) as revenue from {{ ref('orders_enriched') }} group by order_date

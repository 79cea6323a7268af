select order_date, count(*) as orders, sum(amount_minor) as amount_minor from {{ ref('orders_enriched') }} group by 1  -- related BF806 "changed after the manifest was written" BF806 "changed after"

select * from {{ ref('orders_enriched') }}

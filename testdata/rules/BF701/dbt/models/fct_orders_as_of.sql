select o.order_id, c.country, p.category
from {{ source('raw', 'orders') }} o
join {{ ref('customers_snapshot') }} c
  on c.customer_id = o.customer_id
 and o.ordered_at >= c.dbt_valid_from
 and o.ordered_at < coalesce(c.dbt_valid_to, '9999-12-31')
join {{ ref('dim_product') }} p
  on p.product_id = o.product_id
 and o.ordered_at >= p.valid_from
 and o.ordered_at < p.valid_to

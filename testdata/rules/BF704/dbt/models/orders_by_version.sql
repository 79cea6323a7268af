-- customers_snapshot renames its validity columns and keeps NULL for
-- current rows; products_snapshot stores a far-future date instead.
select o.order_id, c.country, p.category
from {{ source('raw', 'orders') }} o
join {{ ref('customers_snapshot') }} c  -- want BF704 "version_end"
  on c.customer_id = o.customer_id
 and o.ordered_at >= c.version_start
 and o.ordered_at < c.version_end
join {{ ref('products_snapshot') }} p
  on p.product_id = o.product_id
 and o.ordered_at >= p.dbt_valid_from
 and o.ordered_at < p.dbt_valid_to

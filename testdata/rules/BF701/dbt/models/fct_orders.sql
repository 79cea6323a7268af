-- The manifest knows customers_snapshot is a dbt snapshot and catalog.json
-- shows dim_product's validity columns, although this SQL never names them.
select o.order_id, c.country, p.category
from {{ source('raw', 'orders') }} o
join {{ ref('customers_snapshot') }} c on c.customer_id = o.customer_id  -- want BF701 "dbt snapshot"
join {{ ref('dim_product') }} p on p.product_id = o.product_id  -- want BF701 "catalog.json"

-- The upper bound sits in a project macro that is handed the column by
-- name; the join still compares both validity columns.
select o.order_id, s.segment
from {{ ref('stg_orders') }} as o
join {{ ref('customers_snapshot') }} as s
  on s.customer_id = o.customer_id
  and o.ordered_at >= s.dbt_valid_from
  and o.ordered_at < {{ coalesce_to_infinity('s.dbt_valid_to') }}

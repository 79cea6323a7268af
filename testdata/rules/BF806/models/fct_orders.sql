

select o.order_id, o.order_date, o.amount_minor, c.region
from {{ ref('stg_orders') }} o
join {{ ref('country_codes') }} c using (country)
   

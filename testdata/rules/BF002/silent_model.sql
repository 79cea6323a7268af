{{ config(materialized='table') }}
select o.order_id, c.country
from {{ ref('stg_orders') }} o
join {{ source('crm', 'customers') }} c on c.customer_id = o.customer_id

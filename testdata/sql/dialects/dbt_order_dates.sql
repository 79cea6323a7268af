{{ config(materialized='table') }}

select o.order_id, d.date_id
from {{ ref('stg_orders') }} o
join {{ ref('dim_date') }} d ON{{ get_date_id('o.order_date') }} = d.date_id
where o.status in (select status from{{ source('shop', 'valid_statuses') }})

{{ config(materialized='ephemeral') }}

select
    {{ dbt_utils.star(from=ref('stg_shop__orders'), relation_alias='o', except=['_loaded_at']) }},
    c.customer_name,
    c.country_code,
    p.payment_method,
    p.amount as paid_amount
from {{ ref('stg_shop__orders') }} as o
left join {{ ref('stg_shop__customers') }} as c
    on c.customer_id = o.customer_id
left join {{ ref('stg_billing__payments') }} as p
    on p.order_id = o.order_id
    and p.status = 'succeeded'

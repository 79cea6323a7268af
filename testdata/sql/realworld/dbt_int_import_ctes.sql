{{ config(materialized='ephemeral') }}

{{ import_ctes(['stg_shop__orders', 'stg_shop__customers', 'stg_billing__payments']) }},

order_totals as (
    select
        order_id,
        sum(amount) as paid_amount
    from stg_billing__payments
    group by order_id
),

final as (
    select
        o.order_id,
        o.customer_id,
        c.country_code,
        coalesce(t.paid_amount, 0) as paid_amount
    from stg_shop__orders as o
    join stg_shop__customers as c on c.customer_id = o.customer_id
    left join order_totals as t on t.order_id = o.order_id
)

select * from final

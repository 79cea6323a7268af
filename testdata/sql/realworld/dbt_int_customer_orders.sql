{{
    config(
        materialized='incremental',
        unique_key='customer_order_key',
        incremental_strategy='merge'
    )
}}

select
    {{ dbt_utils.generate_surrogate_key(['o.customer_id', 'o.order_id']) }} as customer_order_key,
    o.customer_id,
    o.order_id,
    o.ordered_at,
    row_number() over (partition by o.customer_id order by o.ordered_at) as customer_order_seq
from {{ ref('stg_shop__orders') }} as o
{% if is_incremental() %}
where o.customer_id in (
    select customer_id
    from {{ ref('stg_shop__orders') }}
    where updated_at > (select max(ordered_at) from {{ this }})
)
{% endif %}

{{ config(materialized='view') }}

with source as (

    select * from {{ source('shop', 'orders') }}

),

renamed as (

    select
        id as order_id,
        user_id as customer_id,
        lower(status) as order_status,
        cast(created_at as timestamp) as ordered_at,
        cast(updated_at as timestamp) as updated_at,
        total_cents / 100.0 as order_total,
        _loaded_at
    from source
    where not coalesce(_is_deleted, false)

)

select * from renamed

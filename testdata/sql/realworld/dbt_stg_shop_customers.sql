{{ config(materialized='view') }}

select
    id as customer_id,
    {{ adapter.quote('name') }} as customer_name,
    {{ adapter.quote('group') }} as customer_group,
    nullif(trim(email), '') as email,
    country_code,
    cast(signed_up_at as timestamp) as signed_up_at
from {{ source('shop', 'customers') }}
where signed_up_at >= '{{ var('history_start', '2019-01-01') }}'

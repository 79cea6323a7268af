{{ config({"materialized": "incremental", "incremental_strategy": "merge", "unique_key": ["payment_id"], "on_schema_change": "append_new_columns"}) }}

select
    id as payment_id,
    order_id,
    lower(method) as payment_method,
    amount_cents / 100.0 as amount,
    status,
    cast(created_at as timestamp) as paid_at,
    _synced_at
from {{ source('billing', 'payments') }}
{% if is_incremental() %}
where _synced_at > (select max(_synced_at) from {{ this }})
{% endif %}

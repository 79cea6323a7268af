{{ config(
    materialized='incremental',
    unique_key=['shipment_id', 'leg_number'],
    incremental_strategy='merge',
    merge_update_columns=['status', 'delivered_at']
) }}

select
    s.shipment_id,
    s.leg_number,
    s.carrier,
    s.{{ adapter.quote('from') }} as origin_code,
    s.{{ adapter.quote('to') }} as destination_code,
    s.status,
    s.shipped_at,
    s.delivered_at
from {{ source('logistics', 'shipment_legs') }} as s
{% if is_incremental() %}
where s.updated_at > (select max(shipped_at) from {{ this }}) - interval '2 days'
{% endif %}

{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key=['snapshot_date', 'warehouse_id', 'sku']) }}

select
    cast(counted_at as date) as snapshot_date,
    warehouse_id,
    sku,
    max_by(on_hand_units, counted_at) as on_hand_units
from {{ ref('stg_wms__stock_counts') }}
{% if is_incremental() %}
where cast(counted_at as date) > (select max(snapshot_date) from {{ this }})
{% else %}
where cast(counted_at as date) >= '{{ var("inventory_history_start", "2021-01-01") }}'
{% endif %}
group by 1, 2, 3

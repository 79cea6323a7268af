{{ config(materialized='incremental', incremental_strategy='merge', unique_key=['order_id', 'line_no'], cluster_by=['order_date']) }}

with source_lines as (
    select *
    from {{ source('shop', 'order_lines') }}
    {% if is_incremental() %}
    where _loaded_at > (select max(_loaded_at) from {{ this }})
    {% endif %}
)

select
    l.order_id,
    l.line_no,
    l.order_date,
    try_cast(l.amount as number(18, 2)) as amount,
    iff(l.is_refund, -1, 1) * l.quantity as signed_quantity,
    l._loaded_at
from source_lines as l
qualify row_number() over (partition by l.order_id, l.line_no order by l._loaded_at desc) = 1

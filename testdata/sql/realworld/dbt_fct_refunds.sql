{{ config({"materialized": "incremental", "incremental_strategy": "microbatch", "event_time": "refunded_at", "batch_size": "day", "begin": "2023-01-01", "lookback": 2}) }}

select
    r.refund_id,
    r.payment_id,
    p.order_id,
    r.amount_cents / 100.0 as refund_amount,
    r.reason,
    r.refunded_at
from {{ ref('stg_billing__refunds') }} as r
join {{ ref('stg_billing__payments') }} as p on p.payment_id = r.payment_id

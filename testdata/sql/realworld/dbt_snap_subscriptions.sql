{% snapshot subscriptions_snapshot %}

{{ config({"unique_key": "subscription_id", "strategy": "timestamp", "updated_at": "modified_at", "target_schema": "snapshots"}) }}

with latest as (
    select
        *,
        row_number() over (partition by subscription_id order by modified_at desc) as rn
    from {{ source('billing', 'subscriptions') }}
)

select
    subscription_id,
    customer_id,
    plan_code,
    monthly_amount,
    status,
    modified_at
from latest
where rn = 1

{% endsnapshot %}

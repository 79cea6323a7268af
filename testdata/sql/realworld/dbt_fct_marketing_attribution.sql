{{ config(materialized='table') }}

with {{ attribution_source_ctes(['stg_events', 'fct_orders', 'stg_marketing__campaigns']) }},

touches as (
    select
        e.user_id,
        e.campaign_id,
        e.event_at as touched_at
    from stg_events as e
    where e.campaign_id is not null
),

attributed as (
    select
        o.order_id,
        t.campaign_id,
        row_number() over (partition by o.order_id order by t.touched_at desc) as touch_rank
    from fct_orders as o
    join touches as t
        on t.user_id = o.customer_id
        and t.touched_at <= o.ordered_at
)

select order_id, campaign_id
from attributed
where touch_rank = 1

{{ config(materialized='table') }}

with months as (
    {{ dbt_utils.date_spine(datepart="month", start_date="cast('2020-01-01' as date)", end_date="date_trunc('month', current_date)") }}
),

subscriptions as (
    select * from {{ ref('stg_billing__subscriptions') }}
)

select
    {{ dbt_utils.generate_surrogate_key(['s.subscription_id', 'm.date_month']) }} as subscription_month_key,
    s.subscription_id,
    s.customer_id,
    m.date_month,
    s.monthly_amount as mrr
from subscriptions as s
join months as m
    on m.date_month >= date_trunc('month', s.started_at)
    and m.date_month < coalesce(date_trunc('month', s.cancelled_at), '9999-12-31')

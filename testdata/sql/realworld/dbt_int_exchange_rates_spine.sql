{{ config(materialized='table') }}

select
    d.date_day as rate_date,
    r.currency_code,
    last_value(r.rate_to_usd ignore nulls) over (
        partition by r.currency_code
        order by d.date_day
        rows between unbounded preceding and current row
    ) as rate_to_usd
from (
    {{ dbt_utils.date_spine(datepart="day", start_date="cast('2019-01-01' as date)", end_date="current_date") }}
) as d
left join {{ ref('stg_fx__daily_rates') }} as r
    on r.rate_date = d.date_day

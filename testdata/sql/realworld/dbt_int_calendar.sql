{{ config(materialized='table') }}

with days as (

    {{ dbt_utils.date_spine(
        datepart="day",
        start_date="cast('2018-01-01' as date)",
        end_date="dateadd(year, 2, current_date)"
    ) }}

)

select
    cast(date_day as date) as calendar_date,
    extract(year from date_day) as calendar_year,
    extract(month from date_day) as calendar_month,
    extract(dow from date_day) as day_of_week,
    case when extract(dow from date_day) in (0, 6) then true else false end as is_weekend
from days

{{ config(materialized='table') }}

with months as (
    {{ dbt_utils.date_spine(datepart="month", start_date="cast('" ~ var('fiscal_calendar_start') ~ "' as date)", end_date="cast('2030-01-01' as date)") }}
)

select
    date_month as month_start,
    case
        when extract(month from date_month) >= {{ var('fiscal_year_start_month', 2) }}
            then extract(year from date_month) + 1
        else extract(year from date_month)
    end as fiscal_year
from months

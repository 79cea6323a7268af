{{ config(materialized='table') }}

{% set months_tracked = range(0, 13) %}

with cohorts as (
    select
        customer_id,
        date_trunc('month', first_ordered_at) as cohort_month
    from {{ ref('dim_customers') }}
),

activity as (
    select distinct
        o.customer_id,
        date_trunc('month', o.ordered_at) as active_month
    from {{ ref('fct_orders') }} as o
)

select
    c.cohort_month
    {%- for m in months_tracked %}
    , count(distinct case when datediff('month', c.cohort_month, a.active_month) = {{ m }} then a.customer_id end) as month_{{ m }}_customers
    {%- endfor %}
from cohorts as c
left join activity as a on a.customer_id = c.customer_id
group by c.cohort_month

{{ config(materialized='view') }}

{% set amount_usd -%}
    coalesce(d.amount, 0) * coalesce(fx.rate_to_usd, 1)
{%- endset %}

select
    d.deal_id,
    d.pipeline_stage,
    d.close_date,
    {{ amount_usd }} as amount_usd,
    {{ amount_usd }} * d.probability as weighted_amount_usd
from {{ source('hubspot', 'deals') }} as d
left join {{ ref('int_exchange_rates_spine') }} as fx
    on fx.currency_code = d.currency
    and fx.rate_date = d.close_date

{{ config(materialized='table') }}

{% call statement('open_periods', fetch_result=True) %}
    select period_key
    from {{ ref('stg_erp__periods') }}
    where status = 'open'
    order by period_key
{% endcall %}

{% set open_periods = load_result('open_periods')['data'] | map(attribute=0) | list %}

select
    l.period_key,
    l.account_id,
    sum(l.net_amount) as balance,
    {% if open_periods | length > 0 %}
    l.period_key in ({% for p in open_periods %}'{{ p }}'{% if not loop.last %}, {% endif %}{% endfor %}) as is_open_period
    {% else %}
    false as is_open_period
    {% endif %}
from {{ ref('int_ledger_union_loop') }} as l
group by 1, 2

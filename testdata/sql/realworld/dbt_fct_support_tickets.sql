{{ config(materialized='incremental', unique_key='ticket_id') }}

{%- call statement('sla_targets', fetch_result=True) -%}
    select priority, target_hours from {{ ref('seed_sla_targets') }} order by priority
{%- endcall -%}

{%- set sla_rows = load_result('sla_targets')['data'] -%}

select
    t.ticket_id,
    t.priority,
    t.opened_at,
    t.first_response_at,
    datediff('hour', t.opened_at, t.first_response_at) as response_hours,
    case t.priority
        {% for row in sla_rows %}
        when '{{ row[0] }}' then datediff('hour', t.opened_at, t.first_response_at) <= {{ row[1] }}
        {% endfor %}
        else null
    end as met_sla
from {{ ref('stg_zendesk__tickets') }} as t
where t.opened_at >= '{{ var('support_start_date') }}'
{% if is_incremental() %}
  and t.updated_at > (select max(updated_at) from {{ this }})
{% endif %}

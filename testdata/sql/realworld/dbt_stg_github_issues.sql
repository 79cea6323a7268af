{{- config(materialized='view') -}}

select
    id as issue_id,
    number as issue_number,
    {{ adapter.quote('state') }} as issue_state,
    title,
    cast(created_at as timestamp) as created_at,
    cast(closed_at as timestamp) as closed_at
from {{ source('github', 'issues') }}
where not is_pull_request
{%- if target.name == 'dev' %}
  and created_at >= dateadd(day, -{{ var('dev_days', 30) }}, current_date)
{%- endif %}

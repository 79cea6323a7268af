{{ config(materialized='table', tags=['observability']) }}

select
    r.invocation_id,
    r.node_id,
    r.status,
    r.execution_time,
    r.rows_affected,
    '{{ target.name }}' as target_name
from {{ target.schema }}_audit.dbt_run_results as r
where r.run_started_at >= dateadd(day, -{{ var('audit_retention_days', 14) }}, current_date)
  and r.node_id like 'model.{{ project_name }}.%'

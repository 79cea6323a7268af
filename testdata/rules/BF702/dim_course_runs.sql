{{ config(materialized='incremental', unique_key='course_run_pk') }}
-- A type-2 model maintaining itself: on an incremental run it keeps only
-- rows that differ from its own open versions. Comparing with its current
-- rows is how it detects a change, not a join that hands today's
-- attributes to history.
select
    s.course_run_id,
    s.title,
    s.updated_at as valid_from,
    cast(null as timestamp) as valid_to,
    true as is_current,
    {{ dbt_utils.generate_surrogate_key(['s.course_run_id', 's.updated_at']) }} as course_run_pk
from {{ ref('stg_course_runs') }} as s
{% if is_incremental() %}
where not exists (
    select 1
    from {{ this }} as h
    where h.course_run_id = s.course_run_id
      and h.is_current
      and h.title = s.title
)
{% endif %}

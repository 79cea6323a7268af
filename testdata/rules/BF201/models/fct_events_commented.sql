{{ config(materialized='incremental') }}
{# Only events the table does not hold yet; dbt drops this comment when
   it renders the model. #}
select e.event_id, e.created_at, e.payload {# the raw body #}
from {{ ref('stg_events') }} as e
{% if is_incremental() %}
where e.event_id not in (select event_id from {{ this }})
{% endif %}

{{
  config(
    materialized = 'incremental',
    incremental_strategy = 'insert_overwrite',
    partition_by = {'field': 'session_date', 'data_type': 'date'},
    cluster_by = ['user_id']
  )
}}

select
  date(event_ts) as session_date,
  user_id,
  count(*) as events,
  safe_cast(sum(duration_ms) as int64) as duration_ms
from {{ ref('stg_events') }}
{% if is_incremental() %}
where date(event_ts) >= date_sub(current_date(), interval 3 day)
{% else %}
where date(event_ts) >= '2023-01-01'
{% endif %}
group by 1, 2

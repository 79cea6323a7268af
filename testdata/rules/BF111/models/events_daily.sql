{{ config(materialized='table') }}
-- A table recomputes everything on every run; the clock in its filter
-- bounds what it keeps, not which partitions a run computes.
select cast(event_ts as date) as event_date, count(*) as events
from {{ ref('events_by_vars') }}
where event_ts < current_date
group by 1

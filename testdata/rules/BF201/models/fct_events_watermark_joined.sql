{{ config(materialized='incremental') }}
-- The watermark is a WITH query of the newest row the table holds, joined
-- with a strict >, and rows already present are anti-joined through
-- another WITH query of the table: a re-run inserts nothing twice.
{% if is_incremental() %}
with newest as (
    select max(loaded_at) as loaded_at from {{ this }}
),
present as (
    select event_id from {{ this }} as t
    join newest as n on t.loaded_at >= n.loaded_at
)
select e.event_id, e.loaded_at, e.payload
from {{ ref('stg_events') }} as e
join newest on e.loaded_at > newest.loaded_at
left join present as p on p.event_id = e.event_id
where p.event_id is null
{% else %}
select event_id, loaded_at, payload
from {{ ref('stg_events') }}
{% endif %}

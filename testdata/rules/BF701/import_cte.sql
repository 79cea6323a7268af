-- dbt's style guide starts a model with import CTEs: each stands for the
-- relation it selects from, so a join to one is a join to that relation.
with events as (
    select * from analytics.fct_events
),
namespaces_hist as (
    select * from analytics.namespace_lineage_scd
)
select e.event_id, n.plan_name
from events as e
join namespaces_hist as n  -- want BF701 "\"analytics.namespace_lineage_scd\" \\(through WITH query \"namespaces_hist\"\\)"
    on n.namespace_id = e.namespace_id
where n.lineage_valid_from is not null and n.lineage_valid_to is not null;

-- Renamed in a chain of two import CTEs, and bounded: one version per
-- event, nothing to report.
with hist as (
    select * from analytics.namespace_lineage_scd
),
hist_renamed as (
    select namespace_id, plan_name, lineage_valid_from as starts_at, lineage_valid_to as ends_at
    from hist
)
select e.event_id, h.plan_name
from analytics.fct_events as e
join hist_renamed as h
    on h.namespace_id = e.namespace_id
    and e.event_at >= h.starts_at
    and e.event_at < h.ends_at;

-- A WITH query that aggregates is no longer the history: one row per
-- namespace, nothing to report.
with latest as (
    select namespace_id, max(lineage_valid_from) as lineage_valid_from, max(lineage_valid_to) as lineage_valid_to
    from analytics.namespace_lineage_scd
    group by namespace_id
)
select e.event_id, l.lineage_valid_from
from analytics.fct_events as e
join latest as l on l.namespace_id = e.namespace_id
where l.lineage_valid_to is not null and l.lineage_valid_from is not null;

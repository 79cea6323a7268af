-- BETWEEN on the validity columns of a history read through an import
-- CTE: an event at a version's boundary matches two versions.
with namespaces_hist as (
    select * from analytics.namespace_lineage_scd
)
select e.event_id, n.plan_name
from analytics.fct_events as e
join namespaces_hist as n  -- want BF703 "\"analytics.namespace_lineage_scd\" \\(through WITH query \"namespaces_hist\"\\)"
    on n.namespace_id = e.namespace_id
    and e.event_at between n.lineage_valid_from and n.lineage_valid_to;

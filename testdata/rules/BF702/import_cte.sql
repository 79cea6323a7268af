-- A current-row filter inside the WITH query is carried to the join that
-- reads it: the history becomes today's attributes.
with current_accounts as (
    select account_id, segment, _valid_from, _valid_to
    from analytics.dim_account_history
    where _is_current
)
select o.order_id, a.segment
from analytics.fct_orders as o
join current_accounts as a  -- want BF702 "\"analytics.dim_account_history\" \\(through WITH query \"current_accounts\"\\) keeps only its current version \\(a._is_current\\)"
    on a.account_id = o.account_id;

-- The same WITH query over a table that has no versions: a lookup, nothing
-- to report.
with active_accounts as (
    select account_id, segment
    from analytics.dim_account
    where is_active
)
select o.order_id, a.segment
from analytics.fct_orders as o
join active_accounts as a on a.account_id = o.account_id;

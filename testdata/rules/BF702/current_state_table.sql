{{ config(materialized='table') }}
-- A table rebuilt whole on every run: it maps each account to its current
-- segment on purpose, and a backfill has no past of it to rewrite.
select a.account_id, s.segment
from {{ ref('dim_account') }} as a
join {{ ref('account_segments_snapshot') }} as s
    on s.account_id = a.account_id
    and s.dbt_valid_to is null

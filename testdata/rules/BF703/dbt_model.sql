{{ config(materialized='table') }}
-- A dbt model with a closed interval on the snapshot's columns.
select o.order_id, s.segment
from {{ ref('stg_orders') }} as o
left join {{ ref('customers_snapshot') }} as s  -- want BF703 "\"customers_snapshot\" \\(alias \"s\"\\) closes the validity interval with BETWEEN s.dbt_valid_from AND s.dbt_valid_to"
    on s.customer_id = o.customer_id
    and o.ordered_at between s.dbt_valid_from and coalesce(s.dbt_valid_to, {{ var('far_future', "'9999-12-31'") }})

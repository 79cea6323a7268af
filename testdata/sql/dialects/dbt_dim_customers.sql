{{ config(materialized='table', file_format='delta', partition_by=['signup_month']) }}

select
  c.customer_id,
  c.email,
  date_trunc('month', c.signup_ts) as signup_month,
  coalesce(s.segment, 'unknown') as segment
from {{ ref('stg_customers') }} as c
left join {{ ref('customer_segments') }} as s
  on s.customer_id = c.customer_id
where c.email not rlike '@example[.]com$'

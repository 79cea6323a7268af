{{ config(materialized='view') }}

select
    campaign_id,
    campaign_name,
    channel,
    cast(start_date as date) as start_date,
    cast(end_date as date) as end_date,
    budget
from {{ var('campaigns_relation', source('marketing', 'campaigns')) }}
where channel <> 'test'

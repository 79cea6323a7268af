{{ config(materialized='view') }}

with unioned as (

    {{ dbt_utils.union_relations(relations=[ref('stg_google_ads__spend'), ref('stg_meta_ads__spend')]) }}

)

select
    _dbt_source_relation as ad_platform,
    campaign_id,
    cast(spend_date as date) as spend_date,
    spend,
    clicks,
    impressions
from unioned

{{ config(materialized='incremental', unique_key='spend_key', incremental_strategy='merge') }}

with spend as (
    {{ dbt_utils.union_relations(
        relations=[ref('stg_google_ads__spend'), ref('stg_meta_ads__spend'), ref('stg_linkedin_ads__spend')],
        include=['campaign_id', 'spend_date', 'spend', 'clicks']
    ) }}
)

select
    {{ dbt_utils.generate_surrogate_key(['_dbt_source_relation', 'campaign_id', 'spend_date']) }} as spend_key,
    _dbt_source_relation as platform,
    campaign_id,
    spend_date,
    spend,
    clicks
from spend
{% if is_incremental() %}
where spend_date >= (select max(spend_date) - interval '7 days' from {{ this }})
{% endif %}

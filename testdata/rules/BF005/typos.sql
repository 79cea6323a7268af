-- want +4 BF005 "config key \"unique_id\" is not one dbt knows, so dbt ignores it and unique_key is not set"
-- want +4 BF005 "config key \"incremental_stratgy\" is not one dbt knows, so dbt ignores it and incremental_strategy is not set"
{{ config(
    materialized='incremental',
    unique_id=['tx_hash', 'event_index'],
    incremental_stratgy='merge',
    partition_by={'field': 'block_date', 'data_type': 'date'},
    cluster_by=['tx_hash'],
    owner_team='payments'
) }}
select tx_hash, event_index, amount from {{ ref('stg_transfers') }}

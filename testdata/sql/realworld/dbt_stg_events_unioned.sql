{{ config(materialized='view') }}

{{ dbt_utils.union_relations(
    relations=[source('web', 'events'), source('ios', 'events'), source('android', 'events')],
    exclude=['_fivetran_synced'],
    source_column_name='event_source'
) }}

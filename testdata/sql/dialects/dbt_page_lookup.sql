{{ config(materialized='table') }}

select * except (_fivetran_synced, _fivetran_deleted)
from {{ source('cms', 'pages') }}
where not _fivetran_deleted

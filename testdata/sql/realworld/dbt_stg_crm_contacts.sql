{{ config(materialized='view') }}

select
    {{ dbt_utils.star(from=source('crm', 'contacts'), except=['_fivetran_synced', '_fivetran_deleted', 'raw_payload']) }},
    lower(email) as email_normalized
from {{ source('crm', 'contacts') }}
where not _fivetran_deleted

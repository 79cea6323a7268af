select *, 1 as v2 from {{ source('raw', 'orders') }}

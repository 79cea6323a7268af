select *, 'changed' as note from {{ ref('fct_orders') }}

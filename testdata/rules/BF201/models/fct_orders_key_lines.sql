{{ config(
    materialized='incremental',
    incremental_strategy='merge',
    unique_key=[
        'order_id',
        'line_no'
    ]
) }}
-- A unique_key written over several lines is a key all the same: the
-- merge matches on it, so a re-run converges.
select order_id, line_no, order_date, amount_minor
from {{ ref('stg_order_lines') }}

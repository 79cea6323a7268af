{{ config(materialized='ephemeral') }}
select o.*, o.amount * 2 as doubled from {{ ref('fct_orders') }} as o

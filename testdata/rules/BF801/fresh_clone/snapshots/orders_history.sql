{% snapshot orders_history %}
{{ config(target_schema='snapshots', unique_key='order_id', strategy='check', check_cols='all') }}
select * from {{ ref('fct_orders') }}
{% endsnapshot %}

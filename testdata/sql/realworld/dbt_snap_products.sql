{% snapshot products_snapshot %}
    {{- config(
        target_schema=var('snapshot_schema', 'snapshots'),
        unique_key='product_id',
        strategy='check',
        check_cols=['list_price', 'category', 'is_active']
    ) -}}

    select * from {{ source('shop', 'products') }}
{% endsnapshot %}

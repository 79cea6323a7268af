{%- set regions = ['us', 'eu', 'apac'] -%}

with lines as (
    {% for region in regions -%}
    select
        '{{ region }}' as region,
        order_id,
        line_number,
        sku,
        quantity,
        unit_price
    from {{ source('shop_' ~ region, 'order_lines') }}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}
)

select
    {{ dbt_utils.generate_surrogate_key(['region', 'order_id', 'line_number']) }} as order_line_key,
    *
from lines

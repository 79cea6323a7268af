{%- set cents_columns = ['amount', 'amount_captured', 'amount_refunded', 'application_fee_amount'] -%}

select
    id as charge_id,
    customer as customer_id,
    currency,
    {% for col in cents_columns %}
    {{ col }} / 100.0 as {{ col }}{% if not loop.last %},{% endif %}
    {% endfor %}
from {{ source('stripe', 'charges') }}

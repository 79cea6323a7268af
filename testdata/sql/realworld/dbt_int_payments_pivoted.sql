{%- set payment_methods = ['credit_card', 'bank_transfer', 'gift_card', 'coupon'] -%}

with payments as (

    select * from {{ ref('stg_billing__payments') }}

)

select
    order_id,
    {% for method in payment_methods -%}
    sum(case when payment_method = '{{ method }}' then amount else 0 end) as {{ method }}_amount,
    {% endfor -%}
    sum(amount) as total_amount
from payments
where status = 'succeeded'
group by order_id

{% set open_states = ['draft', 'sent', 'partially_paid'] %}

select
    invoice_id,
    customer_id,
    invoice_date,
    due_date,
    amount,
    status,
    case
        when status in ({% for s in open_states %}'{{ s }}'{% if not loop.last %}, {% endif %}{% endfor %}) then true
        else false
    end as is_open
from {{ source('erp', 'invoices') }}
where invoice_date between '{{ var("erp_start_date") }}' and '{{ var("erp_end_date") }}'

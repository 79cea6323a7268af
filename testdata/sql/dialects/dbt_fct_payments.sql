{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='payment_id') }}

select
  p.payment_id,
  p.order_id,
  p.paid_at::date as paid_on,
  p.amount,
  p.payload:method::string as method
from {{ source('billing', 'payments') }} as p
{% if is_incremental() %}
where p.paid_at >= dateadd(day, -3, (select max(paid_on) from {{ this }}))
{% endif %}

select order_id
from {{ ref('stg_orders') }}
{% if is_incremental() %}  -- want BF002 "Jinja {% if %} is never closed"
where updated_at > (select max(updated_at) from {{ this }})

{%- set attributes = ['plan_code', 'country_code', 'signup_channel', 'company_size'] -%}

select
    user_id,
    {%- for attr in attributes %}
    max(case when attribute_name = '{{ attr }}' then attribute_value end) as {{ attr }}
    {%- if not loop.last %},{% endif %}
    {%- endfor %}
from {{ ref('stg_app__user_attributes') }}
group by user_id

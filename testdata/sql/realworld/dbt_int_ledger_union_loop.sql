{%- set ledgers = ['stg_erp__ledger_us', 'stg_erp__ledger_eu', 'stg_erp__ledger_apac'] -%}

{% for ledger in ledgers %}
select
    '{{ ledger }}' as ledger_source,
    entry_id,
    account_id,
    posted_at,
    debit - credit as net_amount
from {{ ref(ledger) }}
{% if not loop.last %}union all{% endif %}
{% endfor %}

{{ config(materialized='incremental', unique_key='send_id', incremental_strategy='merge') }}

with sends as (
    select
        id as send_id,
        campaign_id,
        {{ adapter.quote('to') }} as recipient_email,
        sent_at,
        opened_at,
        clicked_at
    from {{ source('esp', 'sends') }}
    {% if not is_incremental() %}
    where sent_at >= '{{ var("email_history_start", "2022-06-01") }}'
    {% else %}
    where sent_at >= (select max(sent_at) - interval '3 days' from {{ this }})
    {% endif %}
)

select
    send_id,
    campaign_id,
    md5(lower(recipient_email)) as recipient_hash,
    sent_at,
    opened_at is not null as was_opened,
    clicked_at is not null as was_clicked
from sends

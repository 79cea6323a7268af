select order_id from {{ source('raw', 'orders') }}  -- want BF003 "the dbt artifact dbt/target/manifest.json cannot be read.*truncated"

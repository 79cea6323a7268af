select event_id, session_id, ts from {{ source('raw', 'events') }}

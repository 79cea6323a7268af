{{ config(materialized='table') }}

-- Snowflake model shapes from public dbt projects, written for bflint's
-- corpus: an ordered-set LISTAGG with DISTINCT, semi-structured casts, a
-- lateral flatten joined without ON, a string of quotes doubled three at
-- a time, and a project macro that writes the final SELECT after the WITH
-- list.
WITH events AS (

    SELECT
      e.event_id,
      e.payload::ARRAY AS items,
      'e.payload[''' || REPLACE(e.path, '.', '''][''') || ''']' AS payload_path,
      e.created_at
    FROM {{ ref('stg_events') }} AS e

), tags AS (

    SELECT
      events.event_id,
      LISTAGG(DISTINCT f.value::VARCHAR, ', ') WITHIN GROUP (ORDER BY f.value::VARCHAR) AS tag_list
    FROM events
    JOIN LATERAL FLATTEN(input => events.items) AS f
    GROUP BY 1

), final AS (

    SELECT *
    FROM tags

)

{{ dbt_audit(
    cte_ref="final",
    created_by="@analyst",
    updated_by="@analyst",
    created_date="2024-01-01",
    updated_date="2024-01-01"
) }}

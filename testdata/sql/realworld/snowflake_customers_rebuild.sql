-- Rebuild the customer dimension from the CRM change feed for 2023, in a
-- side table that replaces the live one by SWAP once it checks out.
USE DATABASE analytics;
USE SCHEMA analytics.staging;

SET as_of = '2023-12-31 23:59:59'::timestamp_ntz;

CREATE OR REPLACE TABLE staging.dim_customers_rebuild CLONE analytics.core.dim_customers;

CREATE OR REPLACE TEMPORARY TABLE staging.crm_changes_2023 AS
SELECT
    $1:customer_id::number                 AS customer_id,
    $1:changed_at::timestamp_ntz           AS changed_at,
    $1:fields                              AS fields,
    METADATA$FILENAME                      AS source_file
FROM @crm.change_feed/2023/ (FILE_FORMAT => 'crm.ndjson');

CREATE OR REPLACE TRANSIENT TABLE staging.customer_latest AS
SELECT
    c.customer_id,
    c.fields:email::string                               AS email,
    LOWER(TRIM(c.fields['address']['country']::string))  AS country,
    TRY_TO_DATE(c.fields:birth_date::string, 'YYYY-MM-DD') AS birth_date,
    IFF(c.fields:marketing_opt_in::boolean, 'opted_in', 'opted_out') AS consent,
    ARRAY_SIZE(c.fields:segments)                        AS segment_count,
    c.changed_at
FROM staging.crm_changes_2023 AS c
WHERE c.changed_at <= $as_of
QUALIFY ROW_NUMBER() OVER (PARTITION BY c.customer_id ORDER BY c.changed_at DESC) = 1;

-- One row per customer and segment, for the bridge table.
CREATE OR REPLACE TRANSIENT TABLE staging.customer_segments AS
SELECT
    l.customer_id,
    seg.value:code::string           AS segment_code,
    TRY_TO_NUMBER(seg.value:rank::string) AS segment_rank,
    seg.index                        AS position
FROM staging.customer_latest AS l
JOIN staging.crm_changes_2023 AS c
  ON c.customer_id = l.customer_id AND c.changed_at = l.changed_at,
TABLE(FLATTEN(input => c.fields:segments)) AS seg
QUALIFY DENSE_RANK() OVER (PARTITION BY l.customer_id ORDER BY seg.index) <= 5;

UPDATE staging.dim_customers_rebuild AS d
SET email = l.email,
    country = l.country,
    birth_date = l.birth_date,
    consent = l.consent,
    updated_at = l.changed_at
FROM staging.customer_latest AS l
WHERE d.customer_id = l.customer_id
  AND l.changed_at > d.updated_at;

INSERT INTO staging.dim_customers_rebuild (customer_id, email, country, birth_date, consent, updated_at)
SELECT l.* EXCLUDE (segment_count)
FROM staging.customer_latest AS l
WHERE NOT EXISTS (
    SELECT 1 FROM staging.dim_customers_rebuild AS d WHERE d.customer_id = l.customer_id
);

SELECT
    COUNT(*)                                              AS customers,
    COUNT_IF(email IS NULL)                               AS missing_email,
    COUNT_IF(TRY_TO_DATE(birth_date::string) IS NULL)     AS missing_birth_date,
    IFF(COUNT(*) = COUNT(DISTINCT customer_id), 'unique', 'duplicates') AS key_check
FROM staging.dim_customers_rebuild;

ALTER TABLE analytics.core.dim_customers SWAP WITH staging.dim_customers_rebuild;

SELECT * EXCLUDE email
FROM analytics.core.dim_customers
WHERE updated_at BETWEEN '2023-01-01' AND $as_of
LIMIT 100;

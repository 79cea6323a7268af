-- Hive-style daily partitions of device telemetry, rebuilt for three days
-- after a firmware bug doubled some readings. Each day is overwritten on
-- its own, so the rerun of one day never touches another.
DECLARE OR REPLACE VARIABLE first_day DATE DEFAULT DATE'2024-08-12';
DECLARE OR REPLACE VARIABLE last_day DATE = DATE'2024-08-14';
SET VAR last_day = date_add(first_day, 2);

CREATE TABLE IF NOT EXISTS telemetry.readings_clean (
  device_id STRING,
  reading_ts TIMESTAMP,
  metrics MAP<STRING, DOUBLE>,
  location STRUCT<lat: DOUBLE, lon: DOUBLE, site: STRING>,
  alerts ARRAY<STRING>
)
PARTITIONED BY (dt STRING)
STORED AS PARQUET;

CREATE TABLE telemetry.readings_clean_bak_20240815 DEEP CLONE telemetry.readings_clean;

INSERT OVERWRITE TABLE telemetry.readings_clean PARTITION (dt = '2024-08-12')
SELECT
  r.device_id,
  r.reading_ts,
  map_filter(r.metrics, (k, v) -> v IS NOT NULL AND v < 1e6) AS metrics,
  r.location,
  array_distinct(r.alerts) AS alerts
FROM telemetry.readings_raw r
WHERE r.dt = '2024-08-12'
  AND NOT (r.firmware = '4.2.0' AND r.metrics['temp_c'] > 200);

INSERT OVERWRITE TABLE telemetry.readings_clean PARTITION (dt = '2024-08-13')
SELECT r.device_id, r.reading_ts, r.metrics, r.location, array_distinct(r.alerts)
FROM telemetry.readings_raw r
WHERE r.dt = '2024-08-13'
  AND NOT (r.firmware = '4.2.0' AND r.metrics['temp_c'] > 200);

INSERT OVERWRITE TABLE telemetry.readings_clean PARTITION (dt)
SELECT r.device_id, r.reading_ts, r.metrics, r.location, array_distinct(r.alerts), r.dt
FROM telemetry.readings_raw r
WHERE r.dt = '2024-08-14'
  AND NOT (r.firmware = '4.2.0' AND r.metrics['temp_c'] > 200);

-- Per-metric daily statistics, one row per key of the metrics map.
INSERT OVERWRITE TABLE telemetry.metric_daily PARTITION (dt)
SELECT
  c.device_id,
  m.metric,
  avg(m.value) AS avg_value,
  percentile_approx(m.value, 0.95) AS p95_value,
  c.dt
FROM telemetry.readings_clean c
LATERAL VIEW EXPLODE(c.metrics) m AS metric, value
WHERE c.dt BETWEEN '2024-08-12' AND '2024-08-14'
GROUP BY c.device_id, m.metric, c.dt;

-- Alerts per site, with devices that raised none kept as zero.
SELECT
  c.location.site,
  count(alert) AS alerts,
  count(DISTINCT c.device_id) AS devices
FROM telemetry.readings_clean c
LATERAL VIEW OUTER explode(c.alerts) a AS alert
WHERE c.dt BETWEEN '2024-08-12' AND '2024-08-14'
GROUP BY c.location.site;

SELECT dt, count(*) AS readings, count(DISTINCT device_id) AS devices
FROM telemetry.readings_clean
WHERE dt BETWEEN '2024-08-12' AND '2024-08-14'
GROUP BY dt
ORDER BY dt;

-- The bad firmware also wrote a day that should not exist; Hive's
-- partition DDL is left as written.
ALTER TABLE telemetry.readings_clean DROP IF EXISTS PARTITION (dt = '2024-08-15');

-- Devices whose readings disappeared entirely after the cleanup.
SELECT r.device_id, r.dt, count(*) AS raw_readings
FROM telemetry.readings_raw r
WHERE r.dt BETWEEN '2024-08-12' AND '2024-08-14'
  AND NOT EXISTS (
    SELECT 1 FROM telemetry.readings_clean c
    WHERE c.device_id = r.device_id AND c.dt = r.dt
  )
GROUP BY r.device_id, r.dt;

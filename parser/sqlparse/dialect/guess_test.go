package dialect

import "testing"

func TestGuess(t *testing.T) {
	tests := map[string]string{
		"select 1 from {{ ref('a') }}":                                                 "dbt",
		"SELECT * FROM `proj.ds.t` WHERE x[SAFE_OFFSET(0)] = 1":                        "bigquery",
		"# a comment\nSELECT 1":                                                        "bigquery",
		"COPY INTO a.b FROM @stage FILE_FORMAT = (TYPE = CSV)":                         "snowflake",
		"SELECT IFF(a, 1, 2) FROM t, LATERAL FLATTEN(input => t.v)":                    "snowflake",
		"INSERT OVERWRITE TABLE a.b PARTITION (ds) SELECT * FROM `db`.`t`":             "databricks",
		"CREATE TABLE t (s STRUCT<a: INT, b: STRING>) USING DELTA":                     "databricks",
		"SELECT a FROM t QUALIFY row_number() OVER (PARTITION BY a ORDER BY b) = 1":    "postgres",
		"INSERT INTO t SELECT * FROM s WHERE d >= CURRENT_DATE - INTERVAL '1 day'":     "postgres",
		"CREATE TABLE `p.d.t` (a ARRAY<STRUCT<x INT64>>) OPTIONS(description = 'x')":   "bigquery",
		"SELECT x FROM t LATERAL VIEW explode(t.arr) a AS x WHERE t.ds = '2024-01-01'": "databricks",
	}
	for src, want := range tests {
		if got := Guess(src); got != want {
			t.Errorf("Guess(%q) = %s, want %s", src, got, want)
		}
	}
}

package sqlparse

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// TestDialectConstructs parses one construct per case. native says the
// PostgreSQL parser reads it as written: those cases verify that no rewrite
// is needed, the others that the rewrite is what makes them parse.
func TestDialectConstructs(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		flags  dialect.Flags
		native bool
		text   string // a part of the rewritten text, spaces collapsed
	}{
		{name: "dollar-quoted string stays as written", src: "SELECT $$it's$$, $tag$a$tag$", native: true},
		// Trailing commas (BigQuery, Snowflake)
		{name: "trailing comma before FROM", src: "SELECT a, b, FROM t", text: "SELECT a, b FROM t"},
		{name: "trailing comma in a subquery", src: "SELECT * FROM (SELECT a, b, ) s", text: "SELECT a, b ) s"},
		{name: "trailing comma at the end", src: "SELECT 1 AS a, 2 AS b,", text: "2 AS b"},
		{name: "trailing comma before WHERE", src: "SELECT a, WHERE a > 1", text: "SELECT a WHERE"},
		{name: "left join unnest without on", src: "SELECT s.x FROM t LEFT JOIN UNNEST(t.arr) AS s WHERE s.x > 1", text: "AS s ON TRUE WHERE"},
		{name: "join unnest with offset without on", src: "SELECT r FROM t LEFT JOIN UNNEST(t.a) AS r WITH OFFSET AS o WHERE o > 0", text: "ON TRUE WHERE"},
		{name: "join lateral flatten without on", src: "SELECT f.value FROM t JOIN LATERAL FLATTEN(input => t.v) f;", text: "f ON TRUE"},
		{name: "join lateral flatten without on at the end of the file", src: "SELECT f.value FROM t JOIN LATERAL FLATTEN(input => t.v) f", text: "f ON TRUE"},
		{name: "join without on before where", src: "SELECT x FROM raw.t JOIN raw.u WHERE t.a = u.a", text: "JOIN raw.u ON TRUE WHERE t.a = u.a"},
		{name: "join without on, aliased, before group by", src: "SELECT x FROM raw.t AS t INNER JOIN raw.u u WHERE t.a = u.a GROUP BY x", text: "JOIN raw.u u ON TRUE WHERE"},
		{name: "join of a subquery without on before order by", src: "SELECT x FROM raw.t LEFT JOIN (SELECT a FROM raw.v) AS v ORDER BY x", text: "AS v ON TRUE ORDER BY"},
		{name: "join without on at the end of a subquery", src: "SELECT x FROM (SELECT x FROM raw.t JOIN raw.u) s", text: "JOIN raw.u ON TRUE) s"},
		{name: "join without on before another join", src: "SELECT x FROM raw.t JOIN raw.u JOIN raw.w ON w.a = u.a WHERE t.b = u.b", text: "JOIN raw.u ON TRUE JOIN raw.w ON"},
		{name: "join without on at the end", src: "SELECT x FROM raw.t JOIN {{ ref('u') }}", text: "ON TRUE"},
		{name: "nested joins keep their conditions", src: "SELECT x FROM raw.t JOIN raw.u JOIN raw.w ON w.a = u.a ON u.b = t.b", native: true},
		{name: "qualified columns in a join's USING", src: "SELECT x FROM raw.t JOIN raw.u USING (t.a, b, raw.t.c)", text: "USING (a, b, c)"},
		{name: "join unnest with on stays", src: "SELECT 1 FROM t JOIN UNNEST(t.a) AS x ON x = 1", native: true},
		{name: "a FROM item aliased table", src: "SELECT table.* EXCEPT (a) FROM d.filtered table WHERE table.b > 1", text: `SELECT "table".* FROM d.filtered "table" WHERE "table".b > 1`},
		{name: "alias user", src: "SELECT user.id FROM d.users AS user JOIN d.x ON x.id = user.id", text: `AS "user" JOIN`},
		{name: "truncate table stays", src: "TRUNCATE TABLE d.t", native: true},
		{name: "procedure body read as a script", src: "CREATE OR REPLACE PROCEDURE d.p(x INT64, OUT y STRING)\nBEGIN\n  INSERT INTO d.t SELECT x;\nEND;", text: "INSERT INTO d.t SELECT x"},
		{name: "backtick name after an operator", src: "SELECT ARRAY<STRUCT<`end` DATE>>[] AS a, ~`bits` AS b FROM t", text: `~"bits"`},
		{name: "escaped quote in a double-quoted string", src: "SELECT f(\"bar\\\"\", `x`), f(\"y\")", text: `E'bar"'`},
		{name: "NUL escape in bytes", src: `SELECT b"\x10\x00" AS a`, text: `\x10\x01`},
		{name: "task body read as its statement", src: "CREATE OR REPLACE TASK ops.refresh WAREHOUSE = wh SCHEDULE = '5 MINUTE' WHEN SYSTEM$STREAM_HAS_DATA('s') AS INSERT INTO a.b SELECT * FROM c.d", text: "INSERT INTO a.b SELECT * FROM c.d"},
		{name: "task block read as a script", src: "CREATE TASK ops.refresh AS BEGIN INSERT INTO a.b SELECT * FROM c.d; END;", text: "INSERT INTO a.b SELECT * FROM c.d"},
		{name: "column named to", src: "SELECT t.hash FROM erc20.transfers t WHERE to = 0xab12", text: `WHERE "to" = X'ab12'`},
		{name: "column named check", src: "SELECT check, status FROM qa.results WHERE check <> 'x'", text: `SELECT "check", status`},
		{name: "columns named primary, column, unique", src: "SELECT primary, column, unique FROM raw.t WHERE primary = 1 AND t.unique > 2", text: `SELECT "primary", "column", "unique" FROM raw.t WHERE "primary" = 1 AND t.unique > 2`},
		{name: "aliases named with reserved words", src: "SELECT a primary, b unique, c AS foreign, limit, offset FROM raw.t", text: `SELECT a "primary", b "unique", c AS "foreign", "limit", "offset" FROM raw.t`},
		{name: "a WITH query named overlaps", src: "WITH overlaps AS (SELECT 1 AS x) SELECT x FROM overlaps", text: `WITH "overlaps" AS (SELECT 1 AS x) SELECT x FROM "overlaps"`},
		{name: "columns named end and to", src: "SELECT end::date AS d FROM raw.t GROUP BY a, to", text: `SELECT "end"::date AS d FROM raw.t GROUP BY a, "to"`},
		{name: "columns named both and trailing beside TRIM", src: "SELECT TRIM(LEADING '0' FROM x) AS y, both, trailing FROM raw.t", text: `TRIM(LEADING '0' FROM x) AS y, "both", "trailing"`},
		{name: "json_query quote option", src: "SELECT json_query(data, 'lax $.items' OMIT QUOTES) AS a, json_query(d2, 'strict $.b' KEEP QUOTES ON SCALAR STRING) AS b FROM t", text: "json_query(data, 'lax $.items' ) AS a, json_query(d2, 'strict $.b' ) AS b"},
		{name: "Trino array type in a cast", src: "SELECT CAST(json_parse(x) AS ARRAY(JSON)) AS a, TRY_CAST(y AS array(varchar)) AS b FROM t", text: "CAST(json_parse(x) AS JSON[]) AS a, CAST(y AS varchar[]) AS b"},
		{name: "a column named omit stays", src: "SELECT omit, keep FROM t WHERE omit > 1", native: true},
		{name: "empty hexadecimal literal", src: "SELECT a FROM t WHERE flag <> 0x", text: "flag <> X''"},
		{name: "drop snapshot table", src: "DROP SNAPSHOT TABLE `p.d.t`", text: `DROP TABLE "p"."d"."t"`},
		{name: "declare with an array default", src: "DECLARE filters ARRAY<STRING> DEFAULT[];", text: "SELECT ARRAY[]"},
		{name: "listagg distinct within group", src: "SELECT LISTAGG(DISTINCT x, ',') WITHIN GROUP (ORDER BY x) AS xs FROM t", text: "LISTAGG( x, ',') WITHIN GROUP"},
		{name: "cast to array", src: "SELECT PARSE_JSON(v)::ARRAY AS a, y::OBJECT AS o FROM t", text: "PARSE_JSON(v) AS a"},
		{name: "empty double-quoted string", src: `SELECT IF(x = "", NULL, x) AS y FROM t`, text: "x = ''"},
		{name: "call expanded with .*", src: "SELECT get_fields(release).*, x FROM t", text: "(get_fields(release)).*"},
		{name: "quoted call expanded with .* and EXCEPT", src: "SELECT `p-1.udf.f`(e).* EXCEPT (a) FROM t", text: `("p-1"."udf"."f"(e)).*`},
		{name: "IF expanded with .*", src: "SELECT IF(c.id IS NOT NULL, c, p).* REPLACE (1 AS n) FROM c, p", text: "(IF(c.id IS NOT NULL, c, p)).*"},
		// CREATE
		{name: "create or replace table", src: "CREATE OR REPLACE TABLE stg.t AS SELECT 1 AS a", flags: dialect.CreateOrReplace},
		{name: "create or replace transient", src: "CREATE OR REPLACE TRANSIENT TABLE stg.t AS SELECT 1 AS a", flags: dialect.CreateOrReplace},
		{name: "create or replace temp", src: "CREATE OR REPLACE TEMP TABLE t AS SELECT 1 AS a", flags: dialect.CreateOrReplace, text: "TEMP TABLE"},
		{name: "create transient table", src: "CREATE TRANSIENT TABLE stg.t (a INT)"},
		{name: "create or replace view", src: "CREATE OR REPLACE VIEW v AS SELECT 1 AS a", flags: dialect.CreateOrReplace, native: true},
		{name: "create or replace secure view", src: "CREATE OR REPLACE SECURE VIEW v COPY GRANTS AS SELECT 1 AS a", flags: dialect.CreateOrReplace},
		{name: "create or replace materialized view", src: "CREATE OR REPLACE MATERIALIZED VIEW mv CLUSTER BY (a) AS SELECT a FROM t", flags: dialect.CreateOrReplace},
		{name: "create temp table", src: "CREATE TEMP TABLE t AS SELECT 1 AS a", native: true},
		{name: "ctas partition cluster options", src: "CREATE TABLE `p.d.t` PARTITION BY DATE(ts) CLUSTER BY a, b OPTIONS (description = 'x') AS SELECT a, b, ts FROM s", text: `"p"."d"."t" AS SELECT`},
		{name: "ctas databricks clauses", src: "CREATE TABLE db.t USING DELTA PARTITIONED BY (ds) LOCATION 's3://b/p' COMMENT 'c' TBLPROPERTIES ('k' = 'v') AS SELECT 1 AS ds", text: "USING DELTA"},
		{name: "ctas snowflake parameters", src: "CREATE TABLE t CLUSTER BY (a) DATA_RETENTION_TIME_IN_DAYS = 1 CHANGE_TRACKING = TRUE COMMENT = 'x' AS SELECT 1 AS a"},
		{name: "table partition by expression", src: "CREATE TABLE t (a INT64, ts TIMESTAMP) PARTITION BY DATE(ts) CLUSTER BY a"},
		{name: "table cluster by snowflake", src: "CREATE TABLE t (a NUMBER(38, 0), d DATE) CLUSTER BY (d, a)"},
		{name: "postgres partition by range", src: "CREATE TABLE t (a int, d date) PARTITION BY RANGE (d)", native: true, text: "PARTITION BY RANGE (d)"},
		{name: "bigquery types in columns", src: "CREATE TABLE t (a INT64, b FLOAT64, c STRING, d BOOL, e BYTES, f NUMERIC, g BIGNUMERIC, h DATETIME)", native: true},
		{name: "spark struct fields", src: "CREATE TABLE t (s STRUCT<a: INT, b:STRING>, m MAP<STRING, ARRAY<INT>>)", text: "s struct, m map"},
		{name: "bigquery angle types", src: "CREATE TABLE t (a ARRAY<STRING>, b STRUCT<x INT64, y ARRAY<STRING>>, c ARRAY<STRUCT<x INT64>>, m MAP<STRING, INT>)", text: "a STRING[], b struct, c struct[], m map"},
		{name: "column options and comments", src: "CREATE TABLE t (a INT64 NOT NULL OPTIONS (description = 'k'), b STRING COMMENT 'note', PRIMARY KEY (a) NOT ENFORCED)"},
		{name: "generated column", src: "CREATE TABLE t (ts TIMESTAMP, d DATE GENERATED ALWAYS AS (CAST(ts AS DATE)))", text: ")) STORED)"},
		{name: "clone", src: "CREATE OR REPLACE TABLE bk.t CLONE prod.t AT (TIMESTAMP => '2024-01-01'::timestamp)", flags: dialect.CreateOrReplace, text: "AS TABLE prod.t"},
		{name: "deep clone", src: "CREATE TABLE bk.t DEEP CLONE prod.t", text: "AS TABLE prod.t"},
		{name: "like", src: "CREATE TABLE stg.t LIKE prod.t", text: "(LIKE prod.t)"},
		{name: "like backticks", src: "CREATE TABLE stg.t LIKE `p.d.t`", text: `(LIKE "p"."d"."t")`},

		// Identifiers, literals, comments
		{name: "backtick project.dataset.table", src: "SELECT a FROM `proj.ds.tbl`", text: `"proj"."ds"."tbl"`},
		{name: "backtick spark parts", src: "SELECT a FROM `db`.`t`", text: `"db"."t"`},
		{name: "hash comment", src: "# rebuild\nSELECT 1", text: "-- rebuild"},
		{name: "snowflake's // comment", src: "SELECT a, // the note\n  b FROM t", text: "SELECT a, -- the note b FROM t"},
		{name: "hash comment into a word", src: "#standardSQL\nSELECT 1", text: "--standardSQL"},
		{name: "backslash escapes", src: `SELECT 'it\'s', "say \"hi\"" FROM t`, text: `E'it\'s', E'say "hi"'`},
		{name: "postgres backslashes", src: `SELECT 'C:\', 'a\' FROM t`, native: true, text: `'C:\', 'a\'`},
		{name: "double-quoted raw and triple", src: `SELECT r"\d+", """a "quoted" word""", b"x" FROM t`, text: `'\d+', 'a "quoted" word', E'x'`},
		{name: "raw and triple-quoted strings", src: `SELECT r'\d+', '''it's''' FROM t`, text: `'\d+', 'it''s'`},
		{name: "double-quoted date literal", src: `SELECT a FROM t WHERE d = DATE "2024-01-01"`, text: "DATE '2024-01-01'"},
		{name: "snowflake casts", src: "SELECT a::date, b::varchar(10) FROM t", native: true},

		// Scripts: BigQuery, Snowflake and Databricks
		{name: "declare", src: "DECLARE run_date DATE DEFAULT '2024-01-01'", text: "SELECT '2024-01-01'"},
		{name: "declare without value", src: "DECLARE a, b ARRAY<INT64>", text: "SELECT NULL"},
		{name: "declare variable", src: "DECLARE OR REPLACE VARIABLE d DATE = DATE'2024-01-01'", text: "SELECT DATE'2024-01-01'"},
		{name: "postgres cursor", src: "DECLARE c CURSOR FOR SELECT a FROM t", native: true},
		{name: "set expression", src: "SET d = DATE_SUB(@run_date, INTERVAL 1 DAY)", text: `SELECT DATE_SUB("@run_date", INTERVAL '1 DAY')`},
		{name: "set from a struct query", src: "SET (lo, hi) = (SELECT AS STRUCT MIN(d), MAX(d) FROM t)", text: "SELECT (SELECT MIN(d), MAX(d) FROM t)"},
		{name: "set var", src: "SET VAR n = n + 1", text: "SELECT n + 1"},
		{name: "set constant", src: "SET backfill_start = '2024-01-01'", native: true},
		{name: "assert", src: "ASSERT (SELECT COUNT(*) FROM t) > 0 AS 't has rows'", text: "SELECT (SELECT COUNT(*) FROM t) > 0"},
		{name: "script block", src: "BEGIN\n  DELETE FROM t WHERE true;\nEND;", text: "DELETE FROM t WHERE true;"},
		{name: "if then", src: "IF (SELECT COUNT(*) FROM t) = 0 THEN\n  INSERT INTO t VALUES (1);\nEND IF;", text: "INSERT INTO t VALUES (1);"},
		{name: "if with a case condition", src: "IF CASE WHEN x THEN 1 ELSE 0 END = 1 THEN DELETE FROM t WHERE true; END IF;", text: "DELETE FROM t WHERE true;"},
		{name: "while loop", src: "WHILE d <= e DO\n  SET d = d + 1;\nEND WHILE;", text: "SELECT d + 1;"},
		{name: "for loop", src: "FOR r IN (SELECT d FROM t) DO\n  DELETE FROM u WHERE true;\nEND FOR;", text: "DELETE FROM u WHERE true;"},
		{name: "temp function sql", src: "CREATE TEMP FUNCTION f(x INT64) RETURNS INT64 AS (x + 1)", text: "CREATE FUNCTION f() RETURNS void LANGUAGE sql AS ''"},
		{name: "temp function js", src: "CREATE TEMPORARY FUNCTION `p.d.g`(s STRING) RETURNS ARRAY<STRING> LANGUAGE js AS r\"\"\"return s.split(';');\"\"\"", text: `CREATE FUNCTION "p"."d"."g"() RETURNS void`},
		{name: "table function", src: "CREATE OR REPLACE TABLE FUNCTION ds.recent(n INT64) AS SELECT * FROM t WHERE d > n", text: "CREATE OR REPLACE FUNCTION ds.recent() RETURNS void"},
		{name: "databricks sql function", src: "CREATE OR REPLACE TEMPORARY FUNCTION f(x DOUBLE) RETURNS DOUBLE RETURN x * 2", text: "CREATE OR REPLACE FUNCTION f()"},

		// BigQuery arrays and structs
		{name: "select as struct", src: "SELECT AS STRUCT a, b FROM t", text: "SELECT a, b FROM t"},
		{name: "select distinct as value", src: "SELECT DISTINCT AS VALUE a FROM t", text: "SELECT DISTINCT a FROM t"},
		{name: "struct literal", src: "SELECT STRUCT(1 AS a, 'x' AS b), STRUCT(c, d) FROM t", text: "ROW(1 , 'x' ), ROW(c, d)"},
		{name: "typed constructors", src: "SELECT STRUCT<a INT64, b STRING>(1, 'x'), ARRAY<INT64>[1, 2] FROM t", text: "ROW(1, 'x'), ARRAY[1, 2]"},
		{name: "array literals", src: "SELECT [1, 2], [[3], [4]], x IN UNNEST(['a', 'b']) FROM t", text: "ARRAY[1, 2], ARRAY[ARRAY[3], ARRAY[4]], x = ANY(ARRAY['a', 'b'])"},
		{name: "not in unnest", src: "SELECT a FROM t WHERE a NOT IN UNNEST(@xs)", text: `a <> ALL("@xs")`},
		{name: "offset subscripts", src: "SELECT a[OFFSET(0)], a[SAFE_OFFSET(1)], a[ORDINAL(1)], a[SAFE_ORDINAL(2)] FROM t", text: "a[ (0)+1], a[ (1)+1], a[ (1)], a[ (2)]"},
		{name: "subscripted call", src: "SELECT SPLIT(a, ',')[OFFSET(0)], SAFE.PARSE_JSON(b)[0], f(c).field FROM t", text: "(SPLIT(a, ','))[ (0)+1], (SAFE.PARSE_JSON(b))[0], (f(c)).field"},
		{name: "subscripts bigquery writes", native: true, src: "SELECT arr[SAFE_OFFSET(1)].field AS a, (SELECT x)[0] AS b, json_col['k'] AS c, t.arr[ORDINAL(1)] AS d FROM d.t", text: "arr[ (1)+1].field AS a, (SELECT x)[0] AS b, json_col['k'] AS c, t.arr[ (1)] AS d"},
		{name: "subscripted aggregate and window", src: "SELECT ARRAY_AGG(x) WITHIN GROUP (ORDER BY d DESC)[0] AS v, LAG(a) OVER (ORDER BY b)[0] AS w FROM t", text: "(ARRAY_AGG(x) WITHIN GROUP (ORDER BY d DESC))[0] AS v, (LAG(a) OVER (ORDER BY b))[0] AS w"},
		{name: "subscripted array literals", src: "SELECT [1, 2][OFFSET(0)] AS a, ARRAY<INT64>[3][OFFSET(0)] AS b FROM t", text: "(ARRAY[1, 2])[ (0)+1] AS a, (ARRAY[3])[ (0)+1] AS b"},
		{name: "select as value of an array literal", src: "SELECT AS VALUE ['a', 'b']", text: "SELECT ARRAY['a', 'b']"},
		{name: "unnest", src: "SELECT x FROM t CROSS JOIN UNNEST(t.xs) AS x, UNNEST(t.ys) y", native: true},
		{name: "unnest with offset", src: "SELECT x, i FROM t CROSS JOIN UNNEST(t.xs) AS x WITH OFFSET AS i", text: "UNNEST(t.xs) WITH ORDINALITY AS x(x, i)"},
		{name: "unnest with offset back-quoted", src: "SELECT 1 FROM t CROSS JOIN UNNEST(t.xs) `x` WITH OFFSET", text: `UNNEST(t.xs) WITH ORDINALITY AS "x"("x")`},
		{name: "unnest with offset only", src: "SELECT pos FROM UNNEST([3, 4]) WITH OFFSET pos", text: "WITH ORDINALITY AS pos(unnest, pos)"},
		{name: "interval of a parameter", src: "SELECT DATE_SUB(@d, INTERVAL @n DAY), ts + INTERVAL k HOUR FROM t", text: `DATE_SUB("@d", ( "@n" * INTERVAL '1 DAY')), ts + ( k * INTERVAL '1 HOUR')`},
		{name: "timestamp function", src: "SELECT TIMESTAMP(d), TIME(ts), CAST(x AS TIMESTAMP(3)) FROM t", text: `"timestamp"(d), "time"(ts), CAST(x AS TIMESTAMP(3))`},
		{name: "cast format", src: "SELECT CAST(d AS STRING FORMAT 'YYYY-MM') FROM t", text: "CAST(d AS STRING )"},

		// Functions
		{name: "extract with a comma", src: "SELECT EXTRACT('month', d) AS m, EXTRACT(year, CURRENT_DATE) AS y, EXTRACT(DAY FROM d) AS z FROM t", text: "DATE_PART('month', d) AS m, DATE_PART('year', CURRENT_DATE) AS y, EXTRACT(DAY FROM d) AS z"},
		{name: "iff", src: "SELECT IFF(a > 1, 'x', 'y') FROM t", native: true},
		{name: "try_to_date", src: "SELECT TRY_TO_DATE(a), TRY_TO_NUMBER(b) FROM t", native: true},
		{name: "try_cast safe_cast", src: "SELECT TRY_CAST(a AS INT), SAFE_CAST(b AS INT64) FROM t", text: "CAST(a AS INT), CAST(b AS INT64)"},
		{name: "bigquery types in cast", src: "SELECT CAST(a AS INT64), CAST(b AS FLOAT64), CAST(c AS STRING), CAST(d AS BOOL), CAST(e AS BYTES), CAST(f AS BIGNUMERIC), CAST(g AS DATETIME) FROM t", native: true},
		{name: "array cast", src: "SELECT CAST(a AS ARRAY<INT64>) FROM t", text: "INT64[]"},
		{name: "current_date()", src: "SELECT current_date(), current_timestamp(), current_time(), localtimestamp(), current_user() FROM t", text: "current_date , current_timestamp , current_time , localtimestamp , current_user "},
		{name: "current_timestamp precision", src: "SELECT current_timestamp(3) FROM t", native: true},
		{name: "current_date time zone", src: "SELECT CURRENT_DATE('America/New_York') FROM t", text: "CURRENT_DATE "},
		{name: "getdate sysdate now", src: "SELECT getdate(), sysdate(), sysdate, systimestamp(), now() FROM t", native: true},
		{name: "interval literal", src: "SELECT DATE_SUB(d, INTERVAL 1 DAY), ts - INTERVAL -2 HOURS, INTERVAL 2 HOURS 30 MINUTES FROM t", text: "INTERVAL '1 DAY'), ts - INTERVAL '-2 HOURS', INTERVAL '2 HOURS 30 MINUTES'"},
		{name: "ignore nulls", src: "SELECT LAST_VALUE(x) IGNORE NULLS OVER (ORDER BY d), ARRAY_AGG(y RESPECT NULLS ORDER BY y LIMIT 3) FROM t"},
		{name: "like any of a list", src: "SELECT a FROM t WHERE a LIKE ANY ('a%', 'b%') AND b NOT ILIKE ANY ('x%') AND c LIKE ALL ('%y', '%z')", text: "a LIKE ANY (ARRAY['a%', 'b%']) AND b NOT ILIKE ANY (ARRAY['x%']) AND c LIKE ALL (ARRAY['%y', '%z'])"},
		{name: "like any of a subquery stays", src: "SELECT a FROM t WHERE a LIKE ANY (SELECT p FROM u)", native: true, text: "LIKE ANY (SELECT p FROM u)"},
		{name: "rlike", src: "SELECT a FROM t WHERE a RLIKE '^x' AND b NOT RLIKE 'y'", text: "a ~ '^x' AND b !~ 'y'"},

		// Query clauses
		{name: "qualify", src: "SELECT a FROM t QUALIFY ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC) = 1", flags: dialect.Qualify},
		{name: "qualify before order by", src: "SELECT a FROM t QUALIFY RANK() OVER (ORDER BY b) = 1 ORDER BY a LIMIT 5", flags: dialect.Qualify, text: "FROM t ORDER BY a"},
		{name: "qualify in subquery", src: "SELECT * FROM (SELECT a FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1) s", flags: dialect.Qualify, text: "FROM t ) s"},
		{name: "qualify before union", src: "SELECT a FROM t QUALIFY x = 1 UNION ALL SELECT a FROM u", flags: dialect.Qualify},
		{name: "group by all", src: "SELECT a, count(*) FROM t GROUP BY ALL HAVING count(*) > 1", flags: dialect.GroupByAll},
		{name: "select star exclude", src: "SELECT * EXCLUDE (a, b) FROM t", text: "SELECT * FROM t"},
		{name: "select star exclude one", src: "SELECT t.* EXCLUDE a RENAME b AS c FROM t", text: "SELECT t.* FROM t"},
		{name: "select star except replace", src: "SELECT * EXCEPT (a) REPLACE (b + 1 AS b) FROM t", text: "SELECT * FROM t"},
		{name: "except set operation", src: "SELECT * FROM t EXCEPT (SELECT * FROM u)", native: true},
		{name: "union by name", src: "SELECT a, b FROM t UNION ALL BY NAME SELECT b, a FROM u UNION BY NAME SELECT a, b FROM v", text: "FROM t UNION ALL SELECT b, a FROM u UNION SELECT a, b FROM v"},
		{name: "bigquery union by name with its options", src: "SELECT a FROM t FULL OUTER UNION ALL BY NAME ON (a) SELECT a FROM u LEFT UNION ALL CORRESPONDING SELECT a FROM v", text: "FROM t UNION ALL SELECT a FROM u UNION ALL SELECT a FROM v"},
		{name: "minus", src: "SELECT a FROM t MINUS SELECT a FROM u", text: "EXCEPT SELECT"},
		{name: "pivot", src: "SELECT * FROM raw.t PIVOT (SUM(v) FOR k IN ('a', 'b')) AS p", text: "raw.t AS p CROSS JOIN LATERAL (SELECT SUM(v) , k IN ('a', 'b'))"},
		{name: "pivot of an aliased item", src: "SELECT p.x FROM raw.t x PIVOT (SUM(v) FOR k IN ('a', 'b')) p WHERE p.x > 1", text: "raw.t x CROSS JOIN LATERAL (SELECT SUM(v) , k IN ('a', 'b')) p WHERE"},
		{name: "pivot of a subquery with named values", src: "SELECT * FROM (SELECT k, v FROM raw.t) PIVOT (SUM(v) AS s FOR k IN ('a' AS a, 'b' b))", text: "(SELECT k, v FROM raw.t) CROSS JOIN LATERAL (SELECT SUM(v) AS s , k IN ('a' , 'b' ))"},
		{name: "pivot over the values of a subquery", src: "SELECT * FROM raw.t PIVOT (SUM(v) FOR k IN (SELECT k FROM raw.keys)) p", text: "CROSS JOIN LATERAL (SELECT SUM(v) , k IN (SELECT k FROM raw.keys))"},
		{name: "pivot with a default", src: "SELECT * FROM raw.t PIVOT (MAX(v) FOR k IN ('a', 'b') DEFAULT ON NULL (0)) AS p (id, a, b)", text: "raw.t AS p(id, a, b) CROSS JOIN LATERAL (SELECT MAX(v) , k IN ('a', 'b') )"},
		{name: "unpivot", src: "SELECT * FROM raw.t UNPIVOT (val FOR col IN (a, b, c)) AS u", text: "raw.t AS u CROSS JOIN LATERAL (SELECT NULL AS val , NULL AS col , (a, b, c))"},
		{name: "unpivot including nulls, values named", src: "SELECT * FROM raw.t UNPIVOT INCLUDE NULLS (val FOR col IN (a AS 'x', b AS 'y'))", text: "CROSS JOIN LATERAL (SELECT NULL AS val , NULL AS col , (a , b ))"},
		{name: "hierarchical query", src: "SELECT id FROM raw.emp START WITH mgr IS NULL CONNECT BY PRIOR id = mgr", text: "SELECT id FROM raw.emp"},
		{name: "hierarchical query's select list", src: "SELECT id, CONNECT_BY_ROOT id AS r, PRIOR name AS p FROM raw.emp CONNECT BY PRIOR id = mgr ORDER BY id", text: "SELECT id, id AS r, name AS p FROM raw.emp ORDER BY id"},
		{name: "hierarchical query's clauses after WHERE, either order", src: "SELECT id FROM raw.emp WHERE d > '2024-01-01' CONNECT BY NOCYCLE PRIOR id = mgr START WITH mgr IS NULL GROUP BY id", text: "WHERE d > '2024-01-01' GROUP BY id"},
		{name: "time travel", src: "SELECT * FROM t VERSION AS OF 3 JOIN u TIMESTAMP AS OF '2024-01-01' ON true JOIN v FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR) ON true"},
		{name: "snowflake at", src: "SELECT * FROM t AT (OFFSET => -3600) AS x"},

		// Snowflake stages, semi-structured data and variables
		{name: "stage columns", src: "SELECT $1, $2 FROM @stg.files/2024/ (FILE_FORMAT => 'csv', PATTERN => '.*') s", text: `FROM "@stg.files/2024/" s`},
		{name: "qualified stage columns", src: "SELECT s.$1 FROM @~/x s", text: `s."$1" FROM "@~/x" s`},
		{name: "path of a call", src: "SELECT PARSE_URL(u):host::string FROM t", text: "(PARSE_URL(u)->'host')::string"},
		{name: "lateral flatten", src: "SELECT f.value FROM t, LATERAL FLATTEN(input => t.v, outer => true) f", native: true},
		{name: "table flatten", src: "SELECT f.value FROM t, TABLE(FLATTEN(input => t.v)) f", text: "FROM t, FLATTEN(input => t.v) f"},
		{name: "subscripts", src: "SELECT v['a']['b'], v[0] FROM t", native: true},
		{name: "semi-structured path", src: `SELECT src:a.b[0]."C"::string, $1:id FROM t`, text: `(src->'a'->'b'->0->'C')::string, ($1->'id')`},
		{name: "path at the end", src: `SELECT a FROM t WHERE t.src:kind`, text: `(t.src->'kind')`},
		{name: "path with blanks around the colon", src: `SELECT v :a :: string AS x, v: b AS y, v :"KEY" :: string AS z FROM raw.t`, text: `(v ->'a') :: string AS x, (v->'b') AS y, (v ->'KEY') :: string AS z`},
		{name: "path of several levels", src: "SELECT a:b:c::string AS x, PARSE_URL(u):parameters:utm_source AS y FROM raw.t", text: "(a->'b'->'c')::string AS x, (PARSE_URL(u)->'parameters'->'utm_source') AS y"},
		{name: "path after a subscript", src: "SELECT contexts:data[0]:data:ids AS a, e.contexts:data [0] :data AS b, v[0]:k AS c FROM raw.t e", text: "(contexts->'data'->0->'data'->'ids') AS a, (e.contexts->'data' ->0 ->'data') AS b, (v[0]->'k') AS c"},
		{name: "bind variables and slices are no paths", src: "SELECT a[lo:hi], a[lo : hi] FROM raw.t WHERE x = :p AND y IN (:a, :b) LIMIT :n", text: `a[lo:hi], a[lo : hi] FROM raw.t WHERE x = ":p" AND y IN (":a", ":b") LIMIT ":n"`},
		{name: "object constants", src: "SELECT {} AS a, {'a': 1, 'b': x} AS b, {'c':y, 'd':-1, 'e': {'f': [1, 2]}} AS c FROM raw.t", text: "OBJECT_CONSTRUCT() AS a, OBJECT_CONSTRUCT('a', 1, 'b', x) AS b, OBJECT_CONSTRUCT('c', y, 'd', -1, 'e', OBJECT_CONSTRUCT('f', ARRAY[1, 2])) AS c"},
		{name: "session and bind variables", src: "SELECT a FROM t WHERE d BETWEEN $start_date AND :end_date", text: `"$start_date" AND ":end_date"`},
		{name: "bigquery parameter", src: "SELECT a FROM t WHERE d = @run_date", native: true, text: `d = "@run_date"`},
		{name: "parameters named like keywords", src: "SELECT a FROM t WHERE d BETWEEN @start AND @end LIMIT @n", text: `"@start" AND "@end" LIMIT "@n"`},

		// INSERT
		{name: "insert overwrite partition", src: "INSERT OVERWRITE TABLE db.t PARTITION (ds = '2024-01-01', h = 3) SELECT a FROM s", flags: dialect.InsertOverwrite | dialect.OverwritePartition, text: "INSERT INTO db.t SELECT"},
		{name: "insert overwrite dynamic partition", src: "INSERT OVERWRITE db.t PARTITION (ds) SELECT a, ds FROM s", flags: dialect.InsertOverwrite | dialect.OverwritePartition},
		{name: "insert overwrite whole table", src: "INSERT OVERWRITE db.t SELECT a FROM s", flags: dialect.InsertOverwrite},
		{name: "snowflake insert overwrite into", src: "INSERT OVERWRITE INTO db.t SELECT a FROM s", flags: dialect.InsertOverwrite},
		{name: "lateral view", src: "SELECT x FROM t LATERAL VIEW EXPLODE(t.xs) e AS x", text: "CROSS JOIN LATERAL EXPLODE(t.xs) AS e(x)"},
		{name: "lateral view outer", src: "SELECT p, x FROM t LATERAL VIEW OUTER POSEXPLODE(t.xs) AS p, x WHERE p > 0", text: "LEFT JOIN LATERAL POSEXPLODE(t.xs) AS p(p, x) ON true WHERE"},
		{name: "hive insert into table partition", src: "INSERT INTO TABLE db.t PARTITION (ds = '2024-01-01') SELECT a FROM s", text: "INSERT INTO db.t SELECT"},
		{name: "replace where", src: "INSERT INTO db.t REPLACE WHERE ds >= '2024-01-01' AND ds IN (SELECT ds FROM x) SELECT * FROM s", flags: dialect.ReplaceWhere, text: "db.t SELECT * FROM s"},
		{name: "insert by name", src: "INSERT INTO db.t BY NAME SELECT b, a FROM s"},
		{name: "bigquery insert without into", src: "INSERT `p.d.t` (a, b) SELECT a, b FROM s", text: `INSERT INTO "p"."d"."t"`},

		// COPY
		{name: "copy into from stage", src: "COPY INTO raw.t (a, b) FROM @stage/path/ FILE_FORMAT = (TYPE = 'CSV' SKIP_HEADER = 1) ON_ERROR = 'CONTINUE'", flags: dialect.CopyInto, text: "COPY raw.t (a, b) FROM STDIN"},
		{name: "copy into from query", src: "COPY INTO raw.t FROM (SELECT $1:a::string FROM @stage) FILE_FORMAT = (FORMAT_NAME = 'json')", flags: dialect.CopyInto, text: "COPY raw.t FROM STDIN"},
		{name: "databricks copy into", src: "COPY INTO main.raw.t FROM 's3://b/p/' FILEFORMAT = PARQUET COPY_OPTIONS ('mergeSchema' = 'true')", flags: dialect.CopyInto},
		{name: "copy unload query", src: "COPY INTO @exports/x/ FROM (SELECT a FROM t) HEADER = TRUE", text: "COPY (SELECT a FROM t) TO STDOUT"},
		{name: "copy unload table", src: "COPY INTO 's3://b/out/' FROM db.t FILE_FORMAT = (TYPE = PARQUET)", text: "COPY db.t TO STDOUT"},
		{name: "postgres copy", src: "COPY t FROM STDIN", native: true},

		// MERGE
		{name: "merge qualified set", src: "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.a = s.a WHEN NOT MATCHED THEN INSERT (id, a) VALUES (s.id, s.a)", native: true},
		{name: "merge insert values", src: "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.a)", native: true},
		{name: "merge without into", src: "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", text: "MERGE INTO t"},
		{name: "merge by target", src: "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY TARGET THEN INSERT (id) VALUES (s.id)"},
		{name: "merge by source", src: "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE AND t.d > '2024-01-01' THEN DELETE", flags: dialect.MergeBySource, text: "WHEN MATCHED AND t.d"},
		{name: "merge by source update", src: "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN UPDATE SET active = false", flags: dialect.MergeBySource},
		{name: "merge insert row", src: "MERGE t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT ROW", flags: dialect.MergeAllColumns, text: "INSERT DEFAULT VALUES"},
		{name: "merge star", src: "MERGE WITH SCHEMA EVOLUTION INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *", flags: dialect.MergeAllColumns, text: `UPDATE SET "*" = DEFAULT`},

		// DELETE, UPDATE, TRUNCATE, DROP
		{name: "delete without from", src: "DELETE t WHERE d = '2024-01-01'", text: "DELETE FROM t"},
		{name: "delete where true", src: "DELETE FROM t WHERE true", native: true},
		{name: "delete using", src: "DELETE FROM t USING s WHERE t.id = s.id", native: true},
		{name: "update from", src: "UPDATE t SET a = s.a FROM s WHERE t.id = s.id", native: true},
		{name: "truncate table", src: "TRUNCATE TABLE t", native: true},
		{name: "truncate if exists", src: "TRUNCATE TABLE IF EXISTS t"},
		{name: "truncate partition", src: "TRUNCATE TABLE db.t PARTITION (ds = '2024-01-01')", flags: dialect.TruncatePartition},
		{name: "drop if exists", src: "DROP TABLE IF EXISTS t", native: true},
		{name: "drop purge", src: "DROP TABLE IF EXISTS db.t PURGE"},

		// Session and maintenance
		{name: "use warehouse", src: "USE WAREHOUSE wh_xl", text: "SET use_warehouse TO 'wh_xl'"},
		{name: "use schema", src: "USE SCHEMA db.staging", text: "SET search_path TO 'db.staging'"},
		{name: "use databricks", src: "USE `main`", text: "SET search_path TO '`main`'"},
		{name: "alter session", src: "ALTER SESSION SET TIMEZONE = 'UTC'", text: "SET TIMEZONE"},
		{name: "alter session several", src: "ALTER SESSION SET TIMEZONE = 'UTC', QUERY_TAG = 'x'", text: "SET TIMEZONE = 'UTC'"},
		{name: "schema clone", src: "CREATE OR REPLACE SCHEMA bk.core CLONE prod.core", text: `CREATE SCHEMA "bk.core"`},
		{name: "add columns", src: "ALTER TABLE t ADD COLUMNS (a INT, b STRUCT<x: INT, y: INT>)", text: "ADD COLUMN a INT, ADD COLUMN b struct"},
		{name: "swap", src: "ALTER TABLE fct.t SWAP WITH fct.t_staging", flags: dialect.SwapWith, text: "INHERIT fct.t_staging"},
		{name: "optimize", src: "OPTIMIZE db.t WHERE ds >= '2024-01-01' ZORDER BY (a)", text: "VACUUM db.t"},
		{name: "vacuum retain", src: "VACUUM db.t RETAIN 168 HOURS"},
		{name: "postgres vacuum", src: "VACUUM FULL t", native: true},
		{name: "analyze table", src: "ANALYZE TABLE db.t COMPUTE STATISTICS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.src, Options{})
			if len(f.Statements) != 1 || len(f.Problems) > 0 {
				t.Fatalf("want one statement, got %d, problems %v", len(f.Statements), f.Problems)
			}
			st := f.Statements[0]
			if st.Problem != nil || st.Node == nil {
				t.Fatalf("does not parse: %+v\n%s", st.Problem, st.Text)
			}
			if st.Flags != c.flags {
				t.Errorf("flags %b, want %b", st.Flags, c.flags)
			}
			if !strings.Contains(strings.Join(strings.Fields(st.Text), " "), c.text) {
				t.Errorf("text %q does not contain %q", st.Text, c.text)
			}
			pg := Parse(c.src, Options{PostgresOnly: true}).Statements[0]
			if parses := pg.Problem == nil; parses != c.native {
				t.Errorf("PostgreSQL alone parses it: %v, want %v (%+v)", parses, c.native, pg.Problem)
			}
		})
	}
}

// TestDialectPositions checks that positions after and inside rewritten
// text still point at what the user wrote.
func TestDialectPositions(t *testing.T) {
	t.Run("errors after rewrites", func(t *testing.T) {
		cases := []struct{ src, at string }{
			{"CREATE OR REPLACE TRANSIENT TABLE `p.d.t`\nCLUSTER BY (a)\nAS SELECT a FROM s WHERE WHERE", "3:26"},
			{"INSERT OVERWRITE TABLE t PARTITION (ds = '2024-01-01')\nSELECT a FROM s\nQUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1\nORDER BY a a", "4:12"},
			{"MERGE t USING s ON t.id = s.id\nWHEN NOT MATCHED BY SOURCE THEN DELETE\nWHEN MATCHED THEN UPDATE SET t.a = = 1", "3:36"},
			{"SELECT src:a.b::string, current_date(), TRY_CAST(x AS INT)\nFROM `p.d.t` WHERE d = DATE \"2024-01-01\" AND AND", "2:46"},
			{"DELETE `p.d.t`\nWHERE d BETWEEN DATE_SUB(d, INTERVAL 1 DAY) AND )", "2:49"},
			{"SELECT STRUCT(1 AS a), [1, 2], SPLIT(s, ',')[OFFSET(0)], @p\nFROM t CROSS JOIN UNNEST(t.xs) AS x WITH OFFSET AS i WHERE WHERE", "2:60"},
			{"IF x THEN\n  INSERT INTO t SELECT a FROM s LATERAL VIEW EXPLODE(s.xs) e AS a WHERE AND;\nEND IF;", "2:73"},
			{"DECLARE d STRING DEFAULT 'it\\'s' AND AND 'x';", "1:38"},
		}
		for _, c := range cases {
			st := Parse(c.src, Options{}).Statements[0]
			if st.Problem == nil {
				t.Errorf("%q parses, want an error at %s", c.src, c.at)
				continue
			}
			if got := facttest.At(c.src, st.Problem.Offset); got != c.at {
				t.Errorf("%q: error at %s (%s), want %s\n%s", c.src, got, st.Problem.Msg, c.at, st.Text)
			}
		}
	})
	t.Run("written relations", func(t *testing.T) {
		cases := []struct {
			src, at string
			rel     func(*pg_query.Node) *pg_query.RangeVar
		}{
			{"-- load\nCOPY INTO raw.events\nFROM @stage FILE_FORMAT = (TYPE = 'JSON')", "2:11", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetCopyStmt().GetRelation() }},
			{"MERGE `p.d.t` T USING s ON T.id = s.id WHEN MATCHED THEN DELETE", "1:7", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetMergeStmt().GetRelation() }},
			{"DELETE\n  stg.t WHERE true", "2:3", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetDeleteStmt().GetRelation() }},
			{"INSERT OVERWRITE TABLE db.t PARTITION (ds = 'x') SELECT 1", "1:24", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetInsertStmt().GetRelation() }},
			{"INSERT INTO db.t REPLACE WHERE ds = 'x' SELECT 1", "1:13", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetInsertStmt().GetRelation() }},
			{"CREATE OR REPLACE TABLE `p.d.t` PARTITION BY d AS SELECT 1 AS d", "1:25", func(n *pg_query.Node) *pg_query.RangeVar { return n.GetCreateTableAsStmt().GetInto().GetRel() }},
		}
		for _, c := range cases {
			st := Parse(c.src, Options{}).Statements[0]
			if st.Node == nil {
				t.Fatalf("%q: %+v", c.src, st.Problem)
			}
			if got := facttest.At(c.src, st.Orig(c.rel(st.Node).GetLocation())); got != c.at {
				t.Errorf("%q: relation at %s, want %s", c.src, got, c.at)
			}
			if st.Start != strings.Index(c.src, strings.Fields(strings.TrimPrefix(c.src, "-- load\n"))[0]) {
				t.Errorf("%q: statement starts at %s", c.src, facttest.At(c.src, st.Start))
			}
		}
	})
}

// TestDialectFacts checks that the rewrites of scripts, arrays and lateral
// views leave what rules read unchanged: the statements a script runs,
// each with the relation it writes and those it reads, and no transaction
// where the script has none.
func TestDialectFacts(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // per statement: where it starts, write kind and target, reads
		tx        [][2]int // the transactions, as statement indexes
	}{{
		name: "bigquery script",
		src: `DECLARE d DATE DEFAULT (SELECT MAX(ds) FROM stg.t);
BEGIN
  DELETE FROM rpt.t WHERE ds = d;
  INSERT INTO rpt.t SELECT * FROM stg.t WHERE ds = d;
END;
BEGIN
  BEGIN TRANSACTION;
  DELETE rpt.u WHERE ds = d;
  INSERT rpt.u SELECT * FROM stg.u WHERE ds = d;
  COMMIT TRANSACTION;
EXCEPTION WHEN ERROR THEN
  ROLLBACK TRANSACTION;
  RAISE USING MESSAGE = @@error.message;
END;
IF d IS NULL THEN
  RETURN;
ELSE
  CREATE TEMP FUNCTION f(x INT64) AS ((SELECT COUNT(*) FROM rpt.t));
END IF;`,
		want: []string{
			"1:1 none <- stg.t",
			"3:3 DELETE rpt.t <-",
			"4:3 INSERT rpt.t <- stg.t",
			"7:3 none <-",
			"8:3 DELETE rpt.u <-",
			"9:3 INSERT rpt.u <- stg.u",
			"10:3 none <-",
			"12:3 none <-",
			"18:3 none <-",
		},
		tx: [][2]int{{3, 6}},
	}, {
		name: "postgres transaction closed by END",
		src:  "BEGIN;\nDELETE FROM t WHERE ds = '2024-01-01';\nINSERT INTO t SELECT * FROM s;\nEND;",
		want: []string{"1:1 none <-", "2:1 DELETE t <-", "3:1 INSERT t <- s", "4:1 none <-"},
		tx:   [][2]int{{0, 3}},
	}, {
		name: "reshaping",
		src: "INSERT OVERWRITE TABLE db.t PARTITION (ds = 'x')\nSELECT x FROM db.s LATERAL VIEW OUTER EXPLODE(s.xs) e AS x;\n" +
			"CREATE TABLE stg.x AS SELECT i, n FROM rpt.t CROSS JOIN UNNEST(t.items) AS i WITH OFFSET AS n WHERE i IN UNNEST(@keep);\n" +
			"SELECT f.value:id FROM raw.e, TABLE(FLATTEN(input => e.v:items)) f;\n" +
			"SET n = (SELECT COUNT(*) FROM stg.x);",
		want: []string{"1:1 INSERT OVERWRITE db.t <- db.s", "3:1 CREATE TABLE AS stg.x <- rpt.t", "4:1 none <- raw.e", "5:1 none <- stg.x"},
	}, {
		name: "pivot and unpivot",
		src: "INSERT INTO rpt.p SELECT * FROM raw.t PIVOT (SUM(v) FOR k IN (SELECT k FROM raw.keys)) p;\n" +
			"INSERT INTO rpt.u SELECT u.id, val, col FROM raw.t UNPIVOT (val FOR col IN (a, b)) u WHERE u.id > 0;",
		want: []string{"1:1 INSERT rpt.p <- raw.t raw.keys", "2:1 INSERT rpt.u <- raw.t"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse(c.src, Options{})
			var got []string
			for _, st := range f.Statements {
				if st.Problem != nil {
					t.Fatalf("%s: %s\n%s", facttest.At(c.src, st.Problem.Offset), st.Problem.Msg, st.Text)
				}
				w, _ := st.Write()
				line := facttest.At(c.src, st.Start) + " " + w.Kind.String()
				if w.Kind != fact.WriteNone {
					line += " " + w.Target.Name()
				}
				line += " <-"
				for _, r := range st.Reads() {
					line += " " + r.Name()
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("statements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if tx := f.Transactions(); fmt.Sprint(tx) != fmt.Sprint(c.tx) {
				t.Errorf("transactions %v, want %v", tx, c.tx)
			}
		})
	}
}

// TestJoinWithoutOn checks that a join Snowflake reads as a cross join,
// its condition in the WHERE, keeps that condition where rules look for
// it, and gains none.
func TestJoinWithoutOn(t *testing.T) {
	st := Parse("SELECT t.x FROM raw.t JOIN raw.u WHERE t.a = u.a AND u.d >= '2026-01-01'", Options{}).Statements[0]
	if st.Problem != nil {
		t.Fatalf("does not parse: %s\n%s", st.Problem.Msg, st.Text)
	}
	j := st.Joined()
	if len(j.Relations) != 2 {
		t.Fatalf("joined %d relations, want 2", len(j.Relations))
	}
	u := j.Relations[1]
	if u.Relation.Name() != "raw.u" || !u.Inner {
		t.Errorf("second relation %s (inner %v), want raw.u, inner", u.Relation.Name(), u.Inner)
	}
	for _, on := range u.On {
		if len(on.AllColumns) > 0 {
			t.Errorf("ON holds a condition on %v; the join has none", on.AllColumns)
		}
	}
	if len(u.Where) != 2 {
		t.Errorf("raw.u has %d WHERE conjuncts, want 2 (t.a = u.a, u.d >= ...)", len(u.Where))
	}
}

// TestRealWorldCorpus parses the BigQuery, Snowflake and Databricks files
// of the real-world corpus: analytics and backfill scripts written the way
// teams commit them. At least 95% of each warehouse's statements must
// parse; the rest are listed here with why, and must fail at their
// construct, to be analysed from their tokens.
func TestRealWorldCorpus(t *testing.T) {
	unparsed := []struct{ file, near, why string }{
		{"bigquery_daily_loop.sql", "FORMAT(", "EXECUTE IMMEDIATE runs a string built at run time"},
		{"databricks_billing_replace_where.sql", "RESTORE TABLE", "Delta's RESTORE refills a table from its history"},
		{"databricks_hive_partitions.sql", "(dt = '2024-08-15')", "Hive's ALTER TABLE ... DROP PARTITION names a partition by value"},
	}
	// The constructs the corpus exercises, each at least twice, as the
	// user writes them.
	constructs := map[string]string{
		"BigQuery SELECT * EXCEPT":       `\*\s*EXCEPT\s*\(`,
		"BigQuery SELECT * REPLACE":      `\)\s*REPLACE\s*\(`,
		"SELECT AS STRUCT or VALUE":      `SELECT\s+AS\s+(STRUCT|VALUE)`,
		"STRUCT<...> type":               `STRUCT<`,
		"ARRAY<...> type":                `ARRAY<`,
		"STRUCT(...) literal":            `STRUCT\(`,
		"typed ARRAY<T>[...] literal":    `ARRAY<\w+>\[`,
		"[...] array literal":            `[(,]\s*\[`,
		"arr[OFFSET(n)]":                 `\[OFFSET\(`,
		"arr[SAFE_OFFSET(n)]":            `\[SAFE_OFFSET\(`,
		"arr[ORDINAL(n)]":                `\[(SAFE_)?ORDINAL\(`,
		"# comment":                      `(?m)^#`,
		"CREATE TEMP FUNCTION":           `CREATE (OR REPLACE )?TEMP(ORARY)? FUNCTION`,
		"JavaScript function body":       `LANGUAGE js`,
		"DECLARE":                        `(?m)^\s*DECLARE `,
		"SET of a script variable":       `(?m)^\s*SET \w+ = \(`,
		"BEGIN ... END block":            `(?m)^BEGIN\n`,
		"BEGIN TRANSACTION":              `BEGIN TRANSACTION;`,
		"IF ... END IF":                  `END IF;`,
		"loop":                           `END (WHILE|FOR);`,
		"CROSS JOIN UNNEST":              `CROSS JOIN UNNEST\(`,
		"IN UNNEST":                      `IN UNNEST\(`,
		"UNNEST ... WITH OFFSET":         `WITH OFFSET`,
		"FOR SYSTEM_TIME AS OF":          `FOR SYSTEM_TIME AS OF`,
		"@param":                         `@[a-z]\w*`,
		"raw string r'...'":              `\br'`,
		"triple-quoted string":           `'''|"""`,
		"backslash escape":               `\\'`,
		"PARTITION BY in DDL":            `(?m)^PARTITION BY`,
		"CLUSTER BY in DDL":              `(?m)^\s*CLUSTER BY`,
		"OPTIONS in DDL":                 `(?m)^OPTIONS`,
		"Snowflake path v:a.b":           `\w:\w+\.\w+`,
		"Snowflake path cast":            `\w:\w+::`,
		"subscript v['a']":               `\['\w+'\]`,
		"LATERAL FLATTEN":                `LATERAL FLATTEN\(input =>`,
		"TABLE(FLATTEN(...))":            `TABLE\(FLATTEN\(`,
		"SELECT * EXCLUDE":               `EXCLUDE`,
		"RENAME":                         `RENAME`,
		"QUALIFY":                        `QUALIFY`,
		"IFF":                            `IFF\(`,
		"TRY_*":                          `TRY_\w+\(`,
		"$1 stage column":                `\$1`,
		"CLONE":                          `CLONE`,
		"COPY INTO":                      `COPY INTO`,
		"INSERT OVERWRITE":               `INSERT OVERWRITE`,
		"REPLACE WHERE":                  `REPLACE WHERE`,
		"backticked parts":               "`\\w+`\\.`\\w+`",
		"LATERAL VIEW EXPLODE":           `LATERAL VIEW (OUTER )?(POS)?EXPLODE`,
		"LATERAL VIEW OUTER":             `LATERAL VIEW OUTER`,
		"Spark struct<name: type>":       `STRUCT<\w+: `,
		"MAP<...> type":                  `MAP<`,
		"CTAS into staging":              `CREATE OR REPLACE (TRANSIENT |TEMPORARY )?TABLE \S*staging`,
		"MERGE":                          `(?m)^\s*MERGE`,
		"INSERT OVERWRITE ... PARTITION": `INSERT OVERWRITE .* PARTITION \(`,
		"dedupe with ROW_NUMBER QUALIFY": `QUALIFY ROW_NUMBER\(\)`,
	}
	dir := filepath.Join("..", "..", "testdata", "sql", "realworld")
	var files []string
	for _, w := range []string{"bigquery", "snowflake", "databricks"} {
		m, err := filepath.Glob(filepath.Join(dir, w+"_*.sql"))
		if err != nil || len(m) < 3 {
			t.Fatalf("the corpus needs several %s files in %s, has %d: %v", w, dir, len(m), err)
		}
		files = append(files, m...)
	}
	type tally struct{ statements, parsed int }
	byWarehouse := map[string]*tally{}
	var all strings.Builder
	expected := map[int]bool{}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, name := string(b), filepath.Base(path)
		all.WriteString(src)
		warehouse, _, _ := strings.Cut(name, "_")
		n := byWarehouse[warehouse]
		if n == nil {
			n = &tally{}
			byWarehouse[warehouse] = n
		}
		f := Parse(src, Options{})
		for _, p := range f.Problems {
			t.Errorf("%s:%s: %s", name, facttest.At(src, p.Offset), p.Msg)
		}
		for _, st := range f.Statements {
			n.statements++
			if st.Problem == nil {
				n.parsed++
				continue
			}
			known := -1
			for i, u := range unparsed {
				if u.file == name && strings.HasPrefix(src[st.Problem.Offset:], u.near) {
					known = i
				}
			}
			if known < 0 {
				t.Errorf("%s:%s: %s\n%s", name, facttest.At(src, st.Problem.Offset), st.Problem.Msg, st.Text)
				continue
			}
			expected[known] = true
			t.Logf("not parsed, for the token analysis: %s:%s %q: %s", name, facttest.At(src, st.Start), strings.Fields(src[st.Start:st.End])[0], unparsed[known].why)
		}
	}
	for i, u := range unparsed {
		if !expected[i] {
			t.Errorf("%s: the statement failing at %q (%s) now parses or fails elsewhere; update the list", u.file, u.near, u.why)
		}
	}
	total := &tally{}
	for _, w := range []string{"bigquery", "snowflake", "databricks"} {
		n := byWarehouse[w]
		total.statements += n.statements
		total.parsed += n.parsed
		share := float64(n.parsed) / float64(n.statements)
		t.Logf("%-10s %3d statements, %3d parsed: %5.1f%%", w, n.statements, n.parsed, 100*share)
		if share < 0.95 {
			t.Errorf("%s: %.1f%% of statements parse, want at least 95%%", w, 100*share)
		}
	}
	t.Logf("%-10s %3d statements, %3d parsed: %5.1f%%", "all", total.statements, total.parsed, 100*float64(total.parsed)/float64(total.statements))
	if total.statements < 110 {
		t.Errorf("the corpus has %d warehouse statements, want at least 110", total.statements)
	}
	for name, pattern := range constructs {
		if n := len(regexp.MustCompile(`(?i)`+pattern).FindAllStringIndex(all.String(), -1)); n < 2 {
			t.Errorf("the corpus writes %s %d times, want at least twice", name, n)
		}
	}
}

// TestDialectGaps lists warehouse syntax bflint does not normalise, with
// why. Each must stay a parse problem (BF002) at the construct: never a
// crash, and never a statement that parses into something else.
func TestDialectGaps(t *testing.T) {
	gaps := []struct{ why, src, near string }{
		{"Snowflake multi-table INSERT has no PostgreSQL form with several targets", "INSERT ALL INTO a VALUES (x) INTO b VALUES (y) SELECT x, y FROM s", "ALL"},
		{"Hive's partition DDL has no PostgreSQL counterpart that names a partition by value", "ALTER TABLE db.t DROP IF EXISTS PARTITION (ds = '2024-01-01')", "("},
		{"a hierarchy whose roots a subquery picks: dropping START WITH would hide what it reads", "SELECT id FROM t START WITH id IN (SELECT id FROM r) CONNECT BY PRIOR id = mgr", "WITH id IN"},
		{"Snowflake's dynamic PIVOT takes the values it names columns after from the data, when it runs", "SELECT * FROM t PIVOT (SUM(a) FOR k IN (ANY ORDER BY k)) AS p", "(a)"},
		{"dynamic SQL runs a string built at run time, which bflint cannot see", "EXECUTE IMMEDIATE 'DELETE FROM t WHERE true'", "'DELETE FROM t WHERE true'"},
		{"Delta's RESTORE refills a table from its history; no PostgreSQL statement writes that", "RESTORE TABLE t TO VERSION AS OF 3", "RESTORE"},
		{"Spark's semi and anti joins keep rows of one side only; no PostgreSQL join does", "SELECT a FROM t LEFT ANTI JOIN u ON t.id = u.id", "ANTI"},
		{"Snowflake SAMPLE and BigQuery TABLESAMPLE ... PERCENT take arguments PostgreSQL cannot read", "SELECT * FROM t SAMPLE (10)", "10"},
	}
	for _, g := range gaps {
		f := Parse(g.src, Options{})
		st := f.Statements[0]
		if st.Problem == nil {
			t.Errorf("%s: %q now parses; move it to TestDialectConstructs", g.why, g.src)
			continue
		}
		if want := strings.Index(g.src, g.near); st.Problem.Offset != want {
			t.Errorf("%q: problem at %s (%s), want at %q", g.src, facttest.At(g.src, st.Problem.Offset), st.Problem.Msg, g.near)
		}
	}
}

// TestDialectCorpus parses every statement of the warehouse corpus. Each
// must parse; with the rewrites off, every warehouse file must fail
// somewhere, which proves the rewrites are what make it parse.
func TestDialectCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "sql", "dialects")
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	type tally struct{ files, statements, unparsed int }
	byWarehouse := map[string]*tally{}
	var seen dialect.Flags
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, name := string(b), filepath.Base(path)
		warehouse, _, _ := strings.Cut(name, "_")
		n := byWarehouse[warehouse]
		if n == nil {
			n = &tally{}
			byWarehouse[warehouse] = n
		}
		n.files++
		f := Parse(src, Options{})
		for _, p := range f.Problems {
			n.unparsed++
			t.Errorf("%s:%s: %s", name, facttest.At(src, p.Offset), p.Msg)
		}
		for _, st := range f.Statements {
			n.statements++
			seen |= st.Flags
			if st.Problem != nil {
				n.unparsed++
				t.Errorf("%s:%s: %s\n%s", name, facttest.At(src, st.Problem.Offset), st.Problem.Msg, st.Text)
			}
		}
		if warehouse == "dbt" {
			continue
		}
		pgFailures := 0
		for _, st := range Parse(src, Options{PostgresOnly: true}).Statements {
			if st.Problem != nil {
				pgFailures++
			}
		}
		if pgFailures == 0 {
			t.Errorf("%s parses without the warehouse rewrites: it tests nothing of them", name)
		}
	}
	var names []string
	warehouseStatements := 0
	for w, n := range byWarehouse {
		names = append(names, w)
		if w != "dbt" {
			warehouseStatements += n.statements
		}
	}
	sort.Strings(names)
	for _, w := range names {
		n := byWarehouse[w]
		t.Logf("%-10s %2d files %3d statements, %5.1f%% parsed", w, n.files, n.statements, 100*float64(n.statements-n.unparsed)/float64(n.statements))
	}
	for _, w := range []string{"snowflake", "bigquery", "databricks"} {
		if byWarehouse[w] == nil || byWarehouse[w].files < 2 {
			t.Errorf("the corpus needs several %s files", w)
		}
	}
	if warehouseStatements < 40 {
		t.Errorf("the corpus has %d warehouse statements, want at least 40", warehouseStatements)
	}
	all := dialect.CreateOrReplace | dialect.InsertOverwrite | dialect.OverwritePartition | dialect.ReplaceWhere | dialect.CopyInto | dialect.MergeBySource |
		dialect.MergeAllColumns | dialect.Qualify | dialect.GroupByAll | dialect.SwapWith | dialect.TruncatePartition
	if missing := all &^ seen; missing != 0 {
		t.Errorf("no corpus statement carries flags %b", missing)
	}
}

// FuzzDialect checks that no input makes the rewrites panic or produce a
// position outside the file.
func FuzzDialect(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", "dialects", "*.sql"))
	realworld, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", "realworld", "*.sql"))
	for _, p := range append(paths, realworld...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"MERGE t USING s ON a WHEN NOT MATCHED BY SOURCE THEN UPDATE SET *",
		"COPY INTO @s FROM (SELECT $1:a FROM @t",
		"CREATE TABLE t LIKE {{ ref('x') }}",
		"SELECT x:", "SELECT ARRAY<", "INSERT OVERWRITE TABLE t PARTITION (", "t VERSION AS OF (",
		"WITH OFFSET", "IF x THEN", "BEGIN BEGIN", "END;", "SELECT f()[", "x LATERAL VIEW f(", "SELECT 'a\\'b",
		"CREATE TEMP FUNCTION f(", "SET (", "DECLARE x DEFAULT", "SELECT STRUCT<a INT64>(", "INTERVAL @n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, st := range Parse(src, Options{}).Statements {
			if st.Start < 0 || st.Start > len(src) || (st.Problem != nil && (st.Problem.Offset < 0 || st.Problem.Offset > len(src))) {
				t.Fatalf("position outside the file: start %d, problem %+v", st.Start, st.Problem)
			}
		}
	})
}

// TestReplaceWhere checks the fact rules read for INSERT ... REPLACE WHERE:
// the predicate normalisation removes, parsed on its own, with locations
// that map back to where the user wrote it.
func TestReplaceWhere(t *testing.T) {
	cases := []struct {
		src, pred string // pred: the predicate as written; "" for none
	}{
		{"INSERT INTO t REPLACE WHERE d >= '2026-01-01' AND d <= '2026-01-31' SELECT * FROM s", "d >= '2026-01-01' AND d <= '2026-01-31'"},
		{"INSERT INTO t REPLACE WHERE k IN (SELECT k FROM u) (SELECT * FROM s)", "k IN (SELECT k FROM u)"},
		{"INSERT INTO t SELECT * FROM s WHERE d >= '2026-01-01'", ""},
	}
	for _, c := range cases {
		st := Parse(c.src, Options{}).Statements[0]
		p := st.ReplaceWhere
		if c.pred == "" {
			if p != nil {
				t.Errorf("%q: ReplaceWhere %+v, want none", c.src, p)
			}
			continue
		}
		if p == nil || p.Where == nil {
			t.Errorf("%q: no ReplaceWhere predicate", c.src)
			continue
		}
		if st.Flags&dialect.ReplaceWhere == 0 {
			t.Errorf("%q: ReplaceWhere set without its flag", c.src)
		}
		// The first column of the predicate maps back to its start.
		var first int32 = -1
		tree.Walk(p.Where, func(m proto.Message) bool {
			if cr, ok := m.(*pg_query.ColumnRef); ok && first < 0 {
				first = cr.GetLocation()
			}
			return true
		})
		if got, want := int(first)+p.Shift, strings.Index(c.src, c.pred); got != want {
			t.Errorf("%q: predicate maps to offset %d, want %d", c.src, got, want)
		}
	}
}

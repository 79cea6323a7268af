package dialect

import (
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// rewrite runs Edits over src and applies them, as the SQL reader does
// before it parses, and returns the flags marked anywhere in it.
func rewrite(t *testing.T, src string) (string, Flags) {
	t.Helper()
	toks, err := sqltext.Lex(src)
	if err != nil {
		t.Fatalf("Lex(%q): %v", src, err)
	}
	edits, marks := Edits(src, toks, sqltext.Code(toks))
	text, _ := sqltext.Rewrite(src, 0, len(src), sqltext.SortEdits(slices.Clone(edits)))
	var flags Flags
	for _, m := range marks {
		if m.Offset < 0 || m.Offset > len(src) {
			t.Errorf("%q: mark at %d, outside the text", src, m.Offset)
		}
		flags |= m.Flags
	}
	return strings.Join(strings.Fields(text), " "), flags
}

func TestEdits(t *testing.T) {
	cases := []struct {
		name, src, want string
		flags           Flags
	}{
		{"plain PostgreSQL is left alone", "SELECT a FROM t WHERE d >= DATE '2026-01-01'", "SELECT a FROM t WHERE d >= DATE '2026-01-01'", 0},
		{"a relation name in brackets", "SELECT d.a FROM (raw.events) d JOIN (m) ON d.k = m.k WHERE d.x IN (SELECT x FROM (s.t))", "SELECT d.a FROM raw.events d JOIN m ON d.k = m.k WHERE d.x IN (SELECT x FROM s.t )", 0},
		{"a query in brackets stays", "SELECT a FROM (SELECT a FROM t) s, (t2)", "SELECT a FROM (SELECT a FROM t) s, (t2)", 0},
		{"CREATE OR REPLACE TABLE", "CREATE OR REPLACE TABLE s.t AS SELECT 1", "CREATE TABLE s.t AS SELECT 1", CreateOrReplace},
		{"INSERT OVERWRITE with a partition", "INSERT OVERWRITE TABLE s.t PARTITION (d = '2026-01-01') SELECT * FROM u", "INSERT INTO s.t SELECT * FROM u", InsertOverwrite | OverwritePartition},
		{"QUALIFY", "SELECT * FROM t QUALIFY ROW_NUMBER() OVER (PARTITION BY k ORDER BY u DESC) = 1", "SELECT * FROM t", Qualify},
		{"MERGE ... UPDATE SET *", "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
			"MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET \"*\" = DEFAULT WHEN NOT MATCHED THEN INSERT DEFAULT VALUES", MergeAllColumns},
		{"Snowflake COPY INTO", "COPY INTO s.t FROM @stage/path FILE_FORMAT = (TYPE = CSV)", "COPY s.t FROM STDIN", CopyInto},
		{"a BigQuery project with dashes, unquoted", "SELECT a-b.c FROM moz-fx-data-shared-prod.telemetry.main JOIN x-y.t USING (k)",
			`SELECT a-b.c FROM "moz-fx-data-shared-prod".telemetry.main JOIN "x-y".t USING (k)`, 0},
		{"a subtraction after FROM is no project", "SELECT * FROM t WHERE a = b-c.d", "SELECT * FROM t WHERE a = b-c.d", 0},
		{"a bind variable after a keyword or an operator is no path", "SELECT a FROM t WHERE x = :p AND y BETWEEN :lo AND :hi LIMIT :n", `SELECT a FROM t WHERE x = ":p" AND y BETWEEN ":lo" AND ":hi" LIMIT ":n"`, 0},
		{"a bind variable in a list is no path", "INSERT INTO t VALUES (:a, :b)", `INSERT INTO t VALUES (":a", ":b")`, 0},
		{"an array slice is no path", "SELECT a[lo:hi], b[lo : hi], c[1:2] FROM t", "SELECT a[lo:hi], b[lo : hi], c[1:2] FROM t", 0},
		{"a join before Jinja, which may hold its condition, is left alone", "SELECT x FROM t LEFT JOIN u {% if f %} ON t.a = u.a {% endif %} WHERE x", "SELECT x FROM t LEFT JOIN u {% if f %} ON t.a = u.a {% endif %} WHERE x", 0},
		{"a join whose item is not read to its end is left alone", "SELECT x FROM t JOIN u SAMPLE (10) x ORDER BY x", "SELECT x FROM t JOIN u SAMPLE (10) x ORDER BY x", 0},
		{"a brace that opens no object constant is left alone", "SELECT {'a' 1} AS o, ${v} FROM t", "SELECT {'a' 1} AS o, ${v} FROM t", 0},
		{"reserved words as keywords stay", "CREATE TABLE t (a INT UNIQUE, b INT PRIMARY KEY, c INT REFERENCES u(id), CONSTRAINT ck CHECK (a > 0))", "CREATE TABLE t (a INT UNIQUE, b INT PRIMARY KEY, c INT REFERENCES u(id), CONSTRAINT ck CHECK (a > 0))", 0},
		{"LIMIT, OFFSET and END as keywords stay", "SELECT CASE WHEN a THEN b ELSE c END AS x FROM t ORDER BY x LIMIT 5 OFFSET 2", "SELECT CASE WHEN a THEN b ELSE c END AS x FROM t ORDER BY x LIMIT 5 OFFSET 2", 0},
		{"a path with blanks", "SELECT v :a :b :: string FROM t", "SELECT (v ->'a' ->'b') :: string FROM t", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, flags := rewrite(t, c.src)
			if got != c.want {
				t.Errorf("rewritten\n got %q\nwant %q", got, c.want)
			}
			if flags != c.flags {
				t.Errorf("flags %b, want %b (text %q)", flags, c.flags, got)
			}
		})
	}
}

// A statement cut off after any token, as an editor's buffer or a broken
// file leaves it, is rewritten without reading past its last token: each
// construct below once did (a trailing JOIN LATERAL panicked).
func TestEditsOfStatementsCutShort(t *testing.T) {
	for _, src := range []string{
		"SELECT * FROM t LEFT JOIN LATERAL FLATTEN(input => t.a) AS f WITH OFFSET AS o",
		"SELECT x, o FROM t, UNNEST(t.a) AS x WITH OFFSET AS o JOIN UNNEST(b) y ON TRUE",
		"SELECT SAFE_CAST(a AS INT64), DATE_SUB(@d, INTERVAL 1 DAY), a::TIMESTAMP_NTZ(9) FROM `p-x.d.t` QUALIFY ROW_NUMBER() OVER (PARTITION BY k) = 1",
		"MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
		"INSERT OVERWRITE TABLE s.t PARTITION (d = '2026-01-01') SELECT STRUCT(1 AS a), ARRAY<INT64>[1] FROM u",
		"DECLARE d DATE DEFAULT '2026-01-01'; SET d = -1; CREATE TEMP FUNCTION f(x INT64) AS (x + 1); EXECUTE IMMEDIATE 'x'",
		"COPY INTO s.t FROM @stage/path FILE_FORMAT = (TYPE = CSV)",
		"SELECT v :a :: string, a:b:c, PARSE_URL(u):p:q, v[0] :k, {'a': {'b': [1]}, 'c':x} FROM t WHERE x LIKE ANY ('a%', 'b%')",
		"SELECT * FROM t PIVOT (SUM(v) AS s FOR k IN ('a' AS a, 'b') DEFAULT ON NULL (0)) AS p (x, y) UNPIVOT INCLUDE NULLS (val FOR col IN (a AS 'x', b)) u",
		"SELECT id, CONNECT_BY_ROOT id FROM t JOIN u USING (t.k) JOIN w WHERE t.a = w.a START WITH m IS NULL CONNECT BY NOCYCLE PRIOR id = m",
		"SELECT primary, limit, ARRAY_AGG(x) WITHIN GROUP (ORDER BY y)[0], [1][OFFSET(0)] FROM t UNION ALL BY NAME ON (a) SELECT 1",
	} {
		toks, err := sqltext.Lex(src)
		if err != nil {
			t.Fatalf("Lex(%q): %v", src, err)
		}
		for _, tok := range sqltext.Code(toks) {
			prefix := src[:tok.End]
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("Edits(%q) panicked: %v", prefix, r)
					}
				}()
				rewrite(t, prefix)
			}()
		}
	}
}

package sqlparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// seedSQL is the worked example of a backfill: build into staging with an
// as-of join to an SCD2 dimension, check key uniqueness, publish by MERGE.
const seedSQL = `-- 1. Recompute the range into staging, from the raw layer and an as-of
-- dimension snapshot. Note the upper bound: the current partition is
-- owned by the scheduled pipeline and is never in a backfill range.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT
 r.order_id,
 r.customer_id,
 r.order_ts,
 d.country, -- as of the order, not as of today
 r.amount_minor,
 r.is_refunded,
 CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END AS net_amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
 ON d.customer_id = r.customer_id
 AND r.order_ts >= d.valid_from
 AND r.order_ts < d.valid_to -- the join that makes it history, not now
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
 
-- 2. The merge's precondition. If this returns a row, stop: the MERGE below
-- is not idempotent against a key that is not unique.
SELECT order_id, COUNT(*) AS n
FROM backfill_staging.fct_orders__bf20260826_a
GROUP BY order_id
HAVING COUNT(*) > 1;
 
-- 3. Publish. One statement; a failure leaves the target exactly as it was.
-- Re-running this statement is a no-op, which is the entire point.
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
 ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET
 t.country = s.country,
 t.amount_minor = s.amount_minor,
 t.is_refunded = s.is_refunded,
 t.net_amount_minor = s.net_amount_minor
WHEN NOT MATCHED THEN INSERT
 (order_id, customer_id, order_ts, country, amount_minor,
 is_refunded, net_amount_minor)
VALUES
 (s.order_id, s.customer_id, s.order_ts, s.country, s.amount_minor,
 s.is_refunded, s.net_amount_minor);`

// parsed parses src and fails the test on any problem.
func parsed(t *testing.T, src string) *File {
	t.Helper()
	f := Parse(src, Options{})
	for _, p := range f.Problems {
		t.Fatalf("problem at %s: %s", facttest.At(src, p.Offset), p.Msg)
	}
	for _, st := range f.Statements {
		if st.Problem != nil {
			t.Fatalf("statement at %s: %s\n%s", facttest.At(src, st.Start), st.Problem.Msg, st.Text)
		}
	}
	return f
}

// last parses src and returns its last statement.
func last(t *testing.T, src string) *Statement {
	t.Helper()
	f := parsed(t, src)
	if len(f.Statements) == 0 {
		t.Fatal("no statement")
	}
	return f.Statements[len(f.Statements)-1]
}

// exprAt is where an expression starts, as line:col of src.
func exprAt(src string, st *Statement, n *pg_query.Node) string {
	return facttest.At(src, st.Orig(exprStart(n)))
}

func describeWrite(src string, w fact.Write) string {
	s := fmt.Sprintf("%s %s@%s kw@%s", w.Kind, w.Target.Name(), facttest.At(src, w.Target.Offset), facttest.At(src, w.Offset))
	if w.Columns != nil {
		s += " cols=" + strings.Join(w.Columns, ",")
	}
	if w.ConflictColumns != nil {
		s += " conflict=" + strings.Join(w.ConflictColumns, ",")
	}
	if w.DoUpdate {
		s += " do-update"
	}
	if w.Partitioned {
		s += " partitioned"
	}
	if w.Temporary {
		s += " temporary"
	}
	return s
}

func describeJoin(src string, st *Statement, j fact.Join) string {
	s := fmt.Sprintf("%s %s@%s", j.Relation.Name(), j.Alias, facttest.At(src, j.Offset))
	if !j.Inner {
		s += " outer"
	}
	if j.CTE {
		s += " cte"
	}
	if j.On != nil {
		s += " on@" + exprAt(src, st, j.On)
	}
	for _, w := range j.Where {
		s += " where@" + exprAt(src, st, w)
	}
	return s
}

func names(rs []sqlname.Relation, src string) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name()+"@"+facttest.At(src, r.Offset))
	}
	return strings.Join(out, " ")
}

func TestSeedExample(t *testing.T) {
	f := parsed(t, seedSQL)
	if len(f.Statements) != 3 {
		t.Fatalf("got %d statements", len(f.Statements))
	}
	build, check, publish := f.Statements[0], f.Statements[1], f.Statements[2]

	t.Run("build", func(t *testing.T) {
		w, ok := build.Write()
		if got, want := describeWrite(seedSQL, w), "CREATE OR REPLACE backfill_staging.fct_orders__bf20260826_a@4:25 kw@4:1"; !ok || got != want {
			t.Errorf("write %q, want %q", got, want)
		}
		if got, want := names(build.Reads(), seedSQL), "raw.orders_events@13:6 dim.customer_snapshot@14:6"; got != want {
			t.Errorf("reads %q, want %q", got, want)
		}
		joins := build.Joins()
		var got []string
		for _, j := range joins {
			got = append(got, describeJoin(seedSQL, build, j))
		}
		want := []string{
			"raw.orders_events r@13:6 on@15:5 where@18:7",
			"dim.customer_snapshot d@14:6 on@15:5",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("joins:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		on := joins[1].On
		if eq := Equalities(on, "r", "d"); fmt.Sprint(eq) != "[[customer_id customer_id]]" {
			t.Errorf("equalities %v", eq)
		}
		if len(fact.Conjuncts(on)) != 3 {
			t.Errorf("ON has %d conjuncts, want 3", len(fact.Conjuncts(on)))
		}
		// Validity predicates compare two columns: not bounds.
		if b := Bounds(build, on); len(b) != 0 {
			t.Errorf("bounds in ON: %s", facttest.Bounds(seedSQL, b))
		}
		if got, want := facttest.Bounds(seedSQL, Bounds(build, build.Select().GetWhereClause())),
			"r.order_date >= date:2026-01-14@18:28; r.order_date <= date:2026-06-30@18:50"; got != want {
			t.Errorf("bounds %q, want %q", got, want)
		}
		if got := strings.Join(SelectColumns(build.Select()), ","); got != "order_id,customer_id,order_ts,country,amount_minor,is_refunded,net_amount_minor" {
			t.Errorf("columns %s", got)
		}
	})

	t.Run("check", func(t *testing.T) {
		if _, ok := check.Write(); ok {
			t.Error("a SELECT writes nothing")
		}
		if got := names(check.Reads(), seedSQL); got != "backfill_staging.fct_orders__bf20260826_a@23:6" {
			t.Errorf("reads %q", got)
		}
		sel := check.Select()
		if cols, ok := check.GroupBy(sel); !ok || strings.Join(cols, ",") != "order_id" {
			t.Errorf("group by %v %v", cols, ok)
		}
		if !HavingCountGreaterThanOne(sel) {
			t.Error("HAVING COUNT(*) > 1 not recognised")
		}
	})

	t.Run("publish", func(t *testing.T) {
		w, _ := publish.Write()
		want := "MERGE analytics.fct_orders@29:12 kw@29:1 cols=order_id,customer_id,order_ts,country,amount_minor,is_refunded,net_amount_minor"
		if got := describeWrite(seedSQL, w); got != want {
			t.Errorf("write %q, want %q", got, want)
		}
		m, ok := publish.Merge()
		if !ok {
			t.Fatal("not a MERGE")
		}
		if m.TargetAlias != "t" || m.SourceAlias != "s" || m.SourceRelation == nil || m.SourceSelect != nil || m.Source.GetRangeVar() == nil {
			t.Fatalf("merge sides: %+v", m)
		}
		if got := m.SourceRelation.Name() + "@" + facttest.At(seedSQL, m.SourceRelation.Offset); got != "backfill_staging.fct_orders__bf20260826_a@30:7" {
			t.Errorf("source %s", got)
		}
		if facttest.At(seedSQL, m.Offset) != "29:1" || facttest.At(seedSQL, m.Target.Offset) != "29:12" {
			t.Errorf("MERGE at %s, target at %s", facttest.At(seedSQL, m.Offset), facttest.At(seedSQL, m.Target.Offset))
		}
		if eq := Equalities(m.On, m.TargetAlias, m.SourceAlias); fmt.Sprint(eq) != "[[order_id order_id]]" {
			t.Errorf("equalities %v", eq)
		}
		// The source is a whole staging table and the insert has no
		// condition: nothing bounds what gets inserted (BF203).
		if len(m.NotMatchedInsert) != 1 {
			t.Fatalf("%d NOT MATCHED inserts", len(m.NotMatchedInsert))
		}
		ins := m.NotMatchedInsert[0]
		if ins.Cond != nil || len(ins.Columns) != 7 || ins.AllColumns || facttest.At(seedSQL, ins.Offset) != "37:1" {
			t.Errorf("insert clause: cond %v, columns %v, at %s", ins.Cond, ins.Columns, facttest.At(seedSQL, ins.Offset))
		}
		if got := names(publish.Reads(), seedSQL); got != "backfill_staging.fct_orders__bf20260826_a@30:7" {
			t.Errorf("reads %q: the MERGE target is written, not read", got)
		}
		if js := publish.Joins(); len(js) != 1 || describeJoin(seedSQL, publish, js[0]) != "backfill_staging.fct_orders__bf20260826_a s@30:7 on@31:5" {
			t.Errorf("joins %v", js)
		}
	})
}

func TestWrites(t *testing.T) {
	cases := []struct {
		name, src string
		flags     dialect.Flags // set on the statement, as a dialect rewrite would
		want      string
	}{
		{"insert", "INSERT INTO analytics.fct_orders (order_id, order_date)\nSELECT order_id, order_date FROM s", 0,
			"INSERT analytics.fct_orders@1:13 kw@1:1 cols=order_id,order_date"},
		{"upsert", "INSERT INTO t (k, v) SELECT k, v FROM s\nON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v", 0,
			"INSERT ON CONFLICT t@1:13 kw@1:1 cols=k,v conflict=k do-update"},
		{"insert or ignore", "INSERT INTO t SELECT * FROM s ON CONFLICT DO NOTHING", 0,
			"INSERT ON CONFLICT t@1:13 kw@1:1"},
		{"insert overwrite partition", "INSERT OVERWRITE TABLE analytics.fct_orders PARTITION (order_date = '2026-01-14')\nSELECT * FROM s", 0,
			"INSERT OVERWRITE analytics.fct_orders@1:24 kw@1:1 partitioned"},
		{"insert overwrite by flag", "INSERT INTO analytics.fct_orders SELECT * FROM s", dialect.InsertOverwrite,
			"INSERT OVERWRITE analytics.fct_orders@1:13 kw@1:1"},
		{"replace where by flag", "INSERT INTO analytics.fct_orders SELECT * FROM s", dialect.ReplaceWhere,
			"REPLACE WHERE analytics.fct_orders@1:13 kw@1:1"},
		{"copy into by flag", "INSERT INTO analytics.fct_orders SELECT * FROM s", dialect.CopyInto,
			"COPY analytics.fct_orders@1:13 kw@1:1"},
		{"with insert", "WITH src AS (SELECT * FROM s WHERE d = '2026-01-14')\n  INSERT INTO t SELECT * FROM src", 0,
			"INSERT t@2:15 kw@2:3"},
		{"ctas", "CREATE TABLE stg.x (a, b) AS SELECT 1, 2", 0, "CREATE TABLE AS stg.x@1:14 kw@1:1 cols=a,b"},
		{"create or replace", "CREATE OR REPLACE TABLE analytics.fct_orders AS SELECT * FROM s", 0,
			"CREATE OR REPLACE analytics.fct_orders@1:25 kw@1:1"},
		{"materialized view", "CREATE MATERIALIZED VIEW mv AS SELECT * FROM s", 0, "CREATE TABLE AS mv@1:26 kw@1:1"},
		{"select into", "SELECT * INTO stg.copy FROM analytics.fct_orders", 0, "CREATE TABLE AS stg.copy@1:15 kw@1:1"},
		{"create temp", "CREATE TEMP TABLE scratch (a int)", 0, "CREATE TABLE scratch@1:19 kw@1:1 temporary"},
		{"delete", "DELETE FROM analytics.fct_orders WHERE order_date >= '2026-01-14'", 0,
			"DELETE analytics.fct_orders@1:13 kw@1:1"},
		{"update", "UPDATE analytics.fct_orders o SET amount = 0 FROM s WHERE s.k = o.k", 0,
			"UPDATE analytics.fct_orders@1:8 kw@1:1"},
		{"truncate", "TRUNCATE TABLE analytics.fct_orders, stg.x", 0,
			"TRUNCATE analytics.fct_orders@1:16 kw@1:1\nTRUNCATE stg.x@1:38 kw@1:1"},
		{"truncate partition", "TRUNCATE TABLE analytics.fct_orders PARTITION (order_date = '2026-01-14')", 0,
			"TRUNCATE analytics.fct_orders@1:16 kw@1:1 partitioned"},
		{"drop", "DROP TABLE IF EXISTS Analytics.Fct_Orders, \"Stg\" . x CASCADE", 0,
			"DROP Analytics.Fct_Orders@1:22 kw@1:1\nDROP Stg.x@1:44 kw@1:1"},
		{"copy from", "COPY analytics.fct_orders FROM '/data/orders.csv'", 0, "COPY analytics.fct_orders@1:6 kw@1:1"},
		{"snowflake copy into", "COPY INTO analytics.fct_orders (a, b) FROM @stage/orders/ FILE_FORMAT = (TYPE = CSV)", 0,
			"COPY analytics.fct_orders@1:11 kw@1:1"},
		{"swap", "ALTER TABLE analytics.fct_orders SWAP WITH stg.fct_orders", 0,
			"SWAP analytics.fct_orders@1:13 kw@1:1\nSWAP stg.fct_orders@1:44 kw@1:1"},
		{"copy to", "COPY analytics.fct_orders TO STDOUT", 0, ""},
		{"query", "SELECT * FROM analytics.fct_orders", 0, ""},
		{"view", "CREATE OR REPLACE VIEW v AS SELECT 1", 0, ""},
		{"drop index", "DROP INDEX i", 0, ""},
		{"begin", "BEGIN", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := last(t, c.src)
			st.Flags |= c.flags
			var got []string
			for _, w := range st.Writes() {
				got = append(got, describeWrite(c.src, w))
			}
			if strings.Join(got, "\n") != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), c.want)
			}
			w, ok := st.Write()
			if ok != (c.want != "") || ok && describeWrite(c.src, w) != got[0] {
				t.Errorf("Write() = %v, %v: not the first of Writes()", w, ok)
			}
		})
	}
}

func TestWriteWhere(t *testing.T) {
	src := "DELETE FROM t\nWHERE d >= DATE '2026-01-14' AND d < DATE '2026-02-01'"
	st := last(t, src)
	w, _ := st.Write()
	if got := facttest.Bounds(src, Bounds(st, w.Where)); got != "d >= date:2026-01-14@2:12; d < date:2026-02-01@2:38" {
		t.Errorf("bounds of the DELETE: %s", got)
	}
}

func TestReads(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"ctes are not relations",
			"WITH recent AS (SELECT * FROM raw.orders WHERE d > '2026-01-01'),\n  orders AS (SELECT * FROM recent)\nSELECT * FROM orders JOIN dim.customers c ON true",
			"raw.orders@1:31 dim.customers@3:27"},
		{"a cte's own body reads the table it shadows",
			"WITH orders AS (SELECT * FROM orders) SELECT * FROM orders",
			"orders@1:31"},
		{"a later cte sees an earlier one",
			"WITH a AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b",
			""},
		{"recursive", "WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT * FROM t", ""},
		{"a cte is visible only in its query",
			"SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) q, a",
			"a@1:57"},
		{"nested subqueries",
			"SELECT * FROM a WHERE x IN (SELECT y FROM b WHERE EXISTS (SELECT 1 FROM c))\n  AND z > (SELECT max(z) FROM (SELECT z FROM d) q)",
			"a@1:15 b@1:43 c@1:73 d@2:46"},
		{"insert reads its target", "INSERT INTO t SELECT * FROM t WHERE d < '2026-01-01'", "t@1:29"},
		{"delete using", "DELETE FROM t USING s WHERE s.k = t.k", "s@1:21"},
		{"update from", "UPDATE t SET v = s.v FROM s WHERE s.k = t.k", "s@1:27"},
		{"merge using a query", "MERGE INTO t USING (SELECT * FROM s) x ON t.k = x.k WHEN MATCHED THEN DELETE", "s@1:35"},
		{"ctas", "CREATE TABLE x AS SELECT * FROM s", "s@1:33"},
		{"copy to", "COPY s TO STDOUT", "s@1:6"},
		{"ddl reads nothing", "ALTER TABLE t ADD COLUMN c int", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := last(t, c.src)
			if got := names(st.Reads(), c.src); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestJoins(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"left join with coalesce",
			"SELECT * FROM fct f\nLEFT JOIN dim.customer_snapshot d ON d.id = f.id AND f.ts >= d.valid_from\n  AND f.ts < COALESCE(d.valid_to, '9999-12-31')\nWHERE d.is_current AND f.x = 1",
			[]string{"fct f@1:15 on@2:38 where@4:24", "dim.customer_snapshot d@2:11 outer on@2:38 where@4:7"}},
		{"dimension first",
			"SELECT * FROM dim d JOIN fct f ON f.ts >= d.valid_from AND f.ts < d.valid_to",
			[]string{"dim d@1:15 on@1:35", "fct f@1:26 on@1:35"}},
		{"right and full",
			"SELECT * FROM a RIGHT JOIN b ON a.k = b.k FULL JOIN c ON c.k = b.k",
			[]string{"a a@1:15 outer on@1:33", "b b@1:28 outer on@1:33", "c c@1:53 outer on@1:58"}},
		{"comma join",
			"SELECT * FROM f, dim d WHERE f.k = d.k AND f.ts BETWEEN d.valid_from AND d.valid_to AND f.x = 1",
			[]string{"f f@1:15 where@1:30 where@1:44 where@1:89", "dim d@1:18 where@1:30 where@1:44"}},
		{"unqualified columns of a lone relation",
			"SELECT * FROM dim.snap WHERE valid_to IS NULL AND snap.k > 0",
			[]string{"dim.snap snap@1:15 where@1:30 where@1:51"}},
		{"nested and cte",
			"WITH cur AS (SELECT * FROM dim.snap s WHERE s.is_current)\nSELECT * FROM fct f JOIN cur c ON c.k = f.k\nWHERE f.k IN (SELECT k FROM other o WHERE o.ok)",
			[]string{"dim.snap s@1:28 where@1:45", "fct f@2:15 on@2:35 where@3:7", "cur c@2:26 cte on@2:35", "other o@3:29 where@3:43"}},
		{"update from", "UPDATE t SET v = d.v FROM dim d WHERE d.k = t.k AND d.valid_to IS NULL",
			[]string{"dim d@1:27 where@1:39 where@1:53"}},
		{"merge using", "MERGE INTO t USING stg.s ON t.k = s.k WHEN MATCHED THEN DELETE",
			[]string{"stg.s s@1:20 on@1:29"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := last(t, c.src)
			var got []string
			for _, j := range st.Joins() {
				got = append(got, describeJoin(c.src, st, j))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestEqualities(t *testing.T) {
	src := "MERGE INTO t USING s ON s.a = t.a AND t.b::text = s.b AND t.d >= DATE '2026-01-14' AND t.c = 1 AND s.e = s.f AND t.g IS NOT DISTINCT FROM s.g AND x = s.h WHEN MATCHED THEN DELETE"
	st := last(t, src)
	m, _ := st.Merge()
	if got := fmt.Sprint(Equalities(m.On, "T", "s")); got != "[[a a] [b b] [g g]]" {
		t.Errorf("got %s", got)
	}
}

func TestMerge(t *testing.T) {
	src := `WITH src AS (SELECT * FROM stg.orders WHERE d >= '2026-01-14')
MERGE INTO analytics.orders
USING src ON orders.k = src.k
WHEN MATCHED AND src.deleted THEN DELETE
WHEN NOT MATCHED AND src.d < '2026-02-01' THEN INSERT (k, d) VALUES (src.k, src.d)
WHEN NOT MATCHED THEN DO NOTHING`
	st := last(t, src)
	m, ok := st.Merge()
	if !ok {
		t.Fatal("not a MERGE")
	}
	if facttest.At(src, m.Offset) != "2:1" || m.TargetAlias != "orders" || m.SourceAlias != "src" {
		t.Errorf("MERGE at %s, aliases %q %q", facttest.At(src, m.Offset), m.TargetAlias, m.SourceAlias)
	}
	// The source names the WITH query: its body is where the source's
	// filter is.
	if got := facttest.Bounds(src, Bounds(st, m.SourceSelect.GetSelectStmt().GetWhereClause())); got != "d >= string:2026-01-14@1:50" {
		t.Errorf("source bounds %q", got)
	}
	if len(m.NotMatchedInsert) != 1 {
		t.Fatalf("%d inserts, want 1 (DO NOTHING inserts nothing)", len(m.NotMatchedInsert))
	}
	ins := m.NotMatchedInsert[0]
	if facttest.At(src, ins.Offset) != "5:1" || strings.Join(ins.Columns, ",") != "k,d" {
		t.Errorf("insert at %s columns %v", facttest.At(src, ins.Offset), ins.Columns)
	}
	if got := facttest.Bounds(src, Bounds(st, ins.Cond)); got != "src.d < string:2026-02-01@5:30" {
		t.Errorf("insert condition bounds %q", got)
	}

	sub := "MERGE INTO t USING (SELECT * FROM s WHERE d BETWEEN '2026-01-01' AND '2026-01-31') AS x ON t.k = x.k\nWHEN NOT MATCHED THEN INSERT *"
	st = last(t, sub)
	m, _ = st.Merge()
	if m.SourceRelation != nil || m.SourceAlias != "x" || m.SourceSelect.GetSelectStmt() == nil {
		t.Fatalf("subquery source: %+v", m)
	}
	if len(m.NotMatchedInsert) != 1 || !m.NotMatchedInsert[0].AllColumns || m.NotMatchedInsert[0].Columns != nil || facttest.At(sub, m.NotMatchedInsert[0].Offset) != "2:1" {
		t.Errorf("INSERT *: %+v", m.NotMatchedInsert)
	}

	if _, ok := last(t, "SELECT 1").Merge(); ok {
		t.Error("a SELECT is no MERGE")
	}
}

func TestUniquenessCheck(t *testing.T) {
	cases := []struct {
		name, src string
		flags     dialect.Flags
		group     string // "" when GroupBy is not ok
		having    bool
	}{
		{"seed shape", "SELECT order_id, COUNT(*) FROM s GROUP BY order_id HAVING COUNT(*) > 1", 0, "order_id", true},
		{"positions", "SELECT order_id, line, count(1) FROM s GROUP BY 1, 2 HAVING count(1) >= 2", 0, "order_id,line", true},
		{"flipped", "SELECT k FROM s GROUP BY s.k HAVING 1 < COUNT(*)", 0, "k", true},
		{"not equal one", "SELECT k FROM s GROUP BY k HAVING COUNT(*) <> 1", 0, "k", true},
		{"group by all", "SELECT k, day, COUNT(*) AS n FROM s GROUP BY () HAVING COUNT(*) > 1", dialect.GroupByAll, "k,day", true},
		{"extra condition", "SELECT k FROM s GROUP BY k HAVING COUNT(*) > 1 AND MAX(v) > 0", 0, "k", false},
		{"count of a column skips nulls", "SELECT k FROM s GROUP BY k HAVING COUNT(k) > 1", 0, "k", false},
		{"wrong threshold", "SELECT k FROM s GROUP BY k HAVING COUNT(*) > 0", 0, "k", false},
		{"expression", "SELECT lower(k) FROM s GROUP BY lower(k) HAVING COUNT(*) > 1", 0, "", true},
		{"rollup", "SELECT k FROM s GROUP BY ROLLUP (k) HAVING COUNT(*) > 1", 0, "", true},
		{"no group", "SELECT COUNT(*) FROM s", 0, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := last(t, c.src)
			st.Flags |= c.flags
			sel := st.Select()
			cols, ok := st.GroupBy(sel)
			if got := strings.Join(cols, ","); ok != (c.group != "") || got != c.group {
				t.Errorf("GroupBy = %q, %v; want %q", got, ok, c.group)
			}
			if got := HavingCountGreaterThanOne(sel); got != c.having {
				t.Errorf("HavingCountGreaterThanOne = %v, want %v", got, c.having)
			}
		})
	}

	// A check that counts the duplicates wraps the shape in a subquery.
	st := last(t, "SELECT COUNT(*) AS dupes FROM (SELECT k FROM s GROUP BY k HAVING COUNT(*) > 1) d")
	sels := st.Selects()
	if len(sels) != 2 || sels[0] != st.Select() || !HavingCountGreaterThanOne(sels[1]) {
		t.Errorf("Selects: %d, outer first", len(sels))
	}
}

func TestSelect(t *testing.T) {
	cases := []struct{ src, cols string }{
		{"SELECT a, b AS c, t.*, 1 + 1 FROM t", "a,c,*,"},
		{"INSERT INTO x SELECT k FROM s", "k"},
		{"CREATE TABLE x AS SELECT k AS key FROM s UNION ALL SELECT j FROM r", "key"},
	}
	for _, c := range cases {
		st := last(t, c.src)
		if got := strings.Join(SelectColumns(st.Select()), ","); got != c.cols {
			t.Errorf("%s: columns %q, want %q", c.src, got, c.cols)
		}
	}
	for _, src := range []string{"DELETE FROM t", "MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE"} {
		if last(t, src).Select() != nil {
			t.Errorf("%s: Select should be nil", src)
		}
	}
}

func TestTransactions(t *testing.T) {
	src := strings.Join([]string{
		"DELETE FROM t WHERE d = '2026-01-14';", // 0
		"INSERT INTO t SELECT * FROM s;",        // 1
		"BEGIN;",                                // 2
		"DELETE FROM t WHERE d = '2026-01-14';", // 3
		"INSERT INTO t SELECT * FROM s;",        // 4
		"COMMIT;",                               // 5
		"START TRANSACTION;",                    // 6
		"DELETE FROM t WHERE d = '2026-01-15';", // 7
		"COMMIT AND CHAIN;",                     // 8
		"INSERT INTO t SELECT * FROM s;",        // 9
		"END;",                                  // 10
		"BEGIN;",                                // 11
		"UPDATE t SET v = 0;",                   // 12, never committed
	}, "\n")
	f := parsed(t, src)
	if got := fmt.Sprint(f.Transactions()); got != "[[2 5] [6 8] [8 10] [11 13]]" {
		t.Errorf("transactions %s", got)
	}
	want := []int{-1, -1, -1, 2, 2, -1, -1, 6, -1, 8, -1, -1, 11}
	for i, w := range want {
		if got := f.Transaction(i); got != w {
			t.Errorf("statement %d: transaction %d, want %d", i, got, w)
		}
		if f.InTransaction(i) != (w >= 0) {
			t.Errorf("statement %d: InTransaction = %v", i, f.InTransaction(i))
		}
	}
	// 7 and 9 are both in a transaction, but not the same one: the range
	// is empty for readers in between.
	if f.Transaction(7) == f.Transaction(9) {
		t.Error("COMMIT AND CHAIN ends a transaction")
	}
}

func TestTransactionAroundJinjaVariants(t *testing.T) {
	src := "BEGIN;\nDELETE FROM t WHERE d >= '2026-01-01';\n{% if is_incremental() %}INSERT INTO t SELECT * FROM a;{% else %}INSERT INTO t SELECT * FROM b;{% endif %}\nCOMMIT;"
	f := parsed(t, src)
	begin := -1
	for i, st := range f.Statements {
		if st.Node.GetTransactionStmt().GetKind() == pg_query.TransactionStmtKind_TRANS_STMT_BEGIN {
			begin = i
		}
	}
	inserts := 0
	for i, st := range f.Statements {
		if w, ok := st.Write(); ok {
			if w.Kind == fact.WriteInsert {
				inserts++
			}
			if f.Transaction(i) != begin {
				t.Errorf("%s (variant %q) is outside the transaction", w.Kind, st.Variant)
			}
		}
	}
	if inserts != 2 {
		t.Errorf("want the INSERT of each variant, got %d", inserts)
	}
}

func TestOffsetsInOriginalText(t *testing.T) {
	// CRLF line ends, multi-byte characters and a rewrite (backticks to
	// quotes, three bytes longer) before the facts: every offset must still
	// land on the text the user wrote.
	src := "-- café ☕ in the header\r\nSELECT 'naïve';\r\n\tINSERT INTO `proj.ds.tbl` (a, d)\r\n\tSELECT a, d FROM `proj.raw.src` AS r\r\n\tWHERE r.d >= DATE '2026-01-14' AND r.d < CURRENT_DATE;\r\n"
	f := parsed(t, src)
	st := f.Statements[1]
	w, _ := st.Write()
	if got := describeWrite(src, w); got != "INSERT proj.ds.tbl@3:14 kw@3:2 cols=a,d" {
		t.Errorf("write %q", got)
	}
	if got := names(st.Reads(), src); got != "proj.raw.src@4:19" {
		t.Errorf("reads %q", got)
	}
	where := st.Select().GetWhereClause()
	if got := facttest.Bounds(src, Bounds(st, where)); got != "r.d >= date:2026-01-14@5:15; r.d < now:current_date@5:43" {
		t.Errorf("bounds %q", got)
	}
	if js := st.Joins(); len(js) != 1 || describeJoin(src, st, js[0]) != "proj.raw.src r@4:19 where@5:8 where@5:37" {
		t.Errorf("joins %v", js)
	}
}

func TestUnparsedStatementHasNoFacts(t *testing.T) {
	f := Parse("SELECT FROM WHERE;", Options{})
	st := f.Statements[0]
	if st.Node != nil {
		t.Fatal("the statement should not parse")
	}
	if _, ok := st.Write(); ok || st.Reads() != nil || st.Joins() != nil || st.Select() != nil || st.Selects() != nil {
		t.Error("facts of a statement that did not parse")
	}
	if _, ok := st.Merge(); ok {
		t.Error("Merge of a statement that did not parse")
	}
	if f.Transactions() != nil || f.InTransaction(0) {
		t.Error("transactions without statements")
	}
}

func TestDayBeforeNext(t *testing.T) {
	tests := []struct{ src, want string }{
		{"CREATE OR REPLACE VIEW `p.d.rates_history` AS SELECT k, d AS valid_from, COALESCE((LEAD(d) OVER (PARTITION BY k ORDER BY d) - 1), '9999-12-31') AS valid_to FROM p.d.rates", "valid_to"},
		{"CREATE TABLE h AS SELECT DATE_SUB(LEAD(d) OVER (ORDER BY d), INTERVAL 1 DAY) AS valid_until FROM x", "valid_until"},
		{"SELECT DATEADD(day, -1, LEAD(d) OVER (ORDER BY d)) AS end_date, IFNULL(LEAD(d) OVER (ORDER BY d) - 1, '9999-12-31') AS valid_to FROM x", "end_date,valid_to"},
		// The next version's start itself is an exclusive end.
		{"SELECT LEAD(d) OVER (ORDER BY d) AS valid_to FROM x", ""},
		// One second before is not a day before.
		{"SELECT LEAD(ts) OVER (ORDER BY ts) - INTERVAL '1 second' AS valid_to FROM x", ""},
		{"SELECT d - 1 AS valid_to FROM x", ""},
		{"DELETE FROM x WHERE d < '2026-01-01'", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(last(t, tt.src).DayBeforeNext(), ","); got != tt.want {
			t.Errorf("%s\nDayBeforeNext = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestUnionsRelations(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"CREATE OR REPLACE VIEW `p.d.all_apps` AS SELECT * FROM `p.a.daily` UNION ALL SELECT * FROM `p.b.daily`", true},
		{"CREATE VIEW v AS SELECT 'a' AS app, x FROM a.t UNION ALL SELECT 'b', x FROM b.t UNION ALL SELECT 'c', x FROM c.t", true},
		{"CREATE TABLE u AS SELECT x FROM a.t UNION DISTINCT SELECT x FROM (SELECT x FROM b.t) s", true},
		// The same source in every branch, or literals beside one source.
		{"CREATE VIEW v AS SELECT x FROM a.t WHERE y UNION ALL SELECT x FROM a.t WHERE NOT y", false},
		{"CREATE VIEW v AS SELECT x FROM a.t UNION ALL SELECT 1", false},
		// Rows that are in both, or in one and not the other, come from both.
		{"CREATE VIEW v AS SELECT x FROM a.t INTERSECT SELECT x FROM b.t", false},
		{"CREATE VIEW v AS SELECT x FROM a.t JOIN b.t USING (x)", false},
		{"DELETE FROM x WHERE d < '2026-01-01'", false},
	}
	for _, tt := range tests {
		if got := last(t, tt.src).UnionsRelations(); got != tt.want {
			t.Errorf("%s\nUnionsRelations = %t, want %t", tt.src, got, tt.want)
		}
	}
}

func TestDefines(t *testing.T) {
	tests := []struct{ src, want string }{
		{"CREATE OR REPLACE VIEW `p.d.v` AS SELECT 1 AS x", "p.d.v"},
		{"CREATE TABLE a.t AS SELECT 1 AS x", "a.t"},
		{"INSERT INTO a.t SELECT 1", "a.t"},
		{"SELECT 1", ""},
	}
	for _, tt := range tests {
		rel, _ := last(t, tt.src).Defines()
		if got := rel.Name(); got != tt.want {
			t.Errorf("%s: Defines = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestExcludesExisting(t *testing.T) {
	target := sqlname.Relation{Parts: []string{"analytics", "events"}}
	tests := []struct {
		src  string
		want bool
	}{
		{"INSERT INTO analytics.events SELECT * FROM raw.events WHERE created_at > (SELECT MAX(created_at) FROM analytics.events)", true},
		{"SELECT * FROM raw.events e WHERE e.ts::date > (SELECT COALESCE(MAX(ts), '1970-01-01') FROM analytics.events)", true},
		{"SELECT * FROM raw.events WHERE (SELECT MAX(created_at) FROM analytics.events) < created_at", true},
		{"SELECT * FROM raw.events e WHERE e.id NOT IN (SELECT id FROM analytics.events)", true},
		{"SELECT * FROM raw.events e WHERE NOT EXISTS (SELECT 1 FROM analytics.events t WHERE t.id = e.id)", true},
		{"SELECT e.* FROM raw.events e LEFT JOIN analytics.events t ON t.id = e.id WHERE t.id IS NULL", true},
		// >= re-reads the rows at the watermark.
		{"SELECT * FROM raw.events WHERE created_at >= (SELECT MAX(created_at) FROM analytics.events)", false},
		// A watermark over another relation guards nothing here.
		{"SELECT * FROM raw.events WHERE created_at > (SELECT MAX(created_at) FROM raw.loads)", false},
		{"SELECT e.* FROM raw.events e LEFT JOIN analytics.events t ON t.id = e.id", false},
		{"SELECT * FROM raw.events e WHERE e.id IN (SELECT id FROM analytics.events)", false},
	}
	for _, tt := range tests {
		if got := last(t, tt.src).ExcludesExisting(target); got != tt.want {
			t.Errorf("%s\nExcludesExisting = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestInsertsParameters(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"INSERT INTO log_table (lvl, msg) VALUES (:p_level, :p_text)", true},
		{"INSERT INTO ops.log (msg) VALUES (@message)", true},
		{"INSERT INTO analytics.fct VALUES (1, '2026-01-14', 100)", false},
		{"INSERT INTO analytics.fct SELECT * FROM raw.x", false},
	}
	for _, tt := range tests {
		if got := last(t, tt.src).InsertsParameters(); got != tt.want {
			t.Errorf("%s: InsertsParameters = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// A MERGE ON FALSE that deletes by NOT MATCHED BY SOURCE replaces the rows
// it deletes with the source's, with no key: both readers say so, and a
// MERGE on a key, or ON FALSE without the delete, does not.
func TestMergeReplaces(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"MERGE t USING (SELECT * FROM s WHERE d >= DATE '2026-01-14') AS s ON FALSE\nWHEN NOT MATCHED BY SOURCE AND t.d >= DATE '2026-01-14' THEN DELETE\nWHEN NOT MATCHED THEN INSERT ROW", true},
		{"MERGE t USING s ON t.k = s.k\nWHEN NOT MATCHED BY SOURCE THEN DELETE\nWHEN NOT MATCHED THEN INSERT ROW", false},
		{"MERGE t USING s ON FALSE\nWHEN NOT MATCHED THEN INSERT ROW", false},
	} {
		st := last(t, c.src)
		w, ok := st.Write()
		if !ok || w.Replaces != c.want {
			t.Errorf("tree: Replaces = %v, want %v:\n%s", w.Replaces, c.want, c.src)
		}
		tf := st.TokenFacts()
		if len(tf.Writes) != 1 || tf.Writes[0].Replaces != c.want {
			t.Errorf("tokens: writes %+v, want Replaces %v:\n%s", tf.Writes, c.want, c.src)
		}
	}
}

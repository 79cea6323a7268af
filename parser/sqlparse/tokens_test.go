package sqlparse

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
)

// describeTokenJoin describes a join as describeJoin does, without On,
// which the token reading leaves to its clause.
func describeTokenJoin(src string, st *Statement, j fact.Join) string {
	s := fmt.Sprintf("%s %s@%s", j.Relation.Name(), j.Alias, facttest.At(src, j.Offset))
	if !j.Inner {
		s += " outer"
	}
	if j.CTE {
		s += " cte"
	}
	for _, w := range j.Where {
		s += " where@" + exprAt(src, st, w)
	}
	return s
}

// TestTokenFactsAgreeWithParse reads statements that parse from their
// tokens too: the writes and joins must be the same, positions included.
func TestTokenFactsAgreeWithParse(t *testing.T) {
	sources := []string{
		seedSQL,
		`WITH src AS (SELECT * FROM raw.orders o WHERE o.order_date >= '2026-01-01' AND o.order_date < '2026-02-01')
INSERT INTO analytics.fct_orders (order_id, country)
SELECT s.order_id, d.country
FROM src s
LEFT JOIN dim.customer_history AS d ON d.customer_id = s.customer_id AND s.ts >= d.valid_from
JOIN (SELECT * FROM ref.regions r WHERE r.code IN (SELECT code FROM ref.active_codes)) q ON q.code = d.region
WHERE s.amount > (SELECT avg(amount) FROM raw.orders WHERE order_date = '2026-01-01') AND d.valid_to > s.ts;`,
		`MERGE INTO analytics.t AS t USING stg.s AS s ON t.id = s.id AND t.dt >= '2026-01-01'
WHEN MATCHED AND s.x > 1 THEN UPDATE SET x = CASE WHEN s.x > 2 THEN 1 ELSE 2 END
WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id);
MERGE INTO analytics.t t USING (SELECT * FROM stg.s WHERE s.dt >= '2026-01-01') AS s ON t.id = s.id
WHEN MATCHED THEN DELETE;`,
		`DELETE FROM analytics.t USING stg.s WHERE t.id = s.id AND t.dt >= '2026-01-01';
UPDATE analytics.t tt SET x = s.x FROM stg.s s JOIN dim.d dd ON dd.k = s.k WHERE tt.id = s.id;
DELETE FROM analytics.t WHERE dt IN (SELECT dt FROM stg.days);`,
		`CREATE OR REPLACE TABLE a.b AS SELECT 1 FROM c.d;
CREATE TEMP TABLE tmp AS SELECT 1;
CREATE TABLE IF NOT EXISTS a.c (id int);
CREATE OR REPLACE TRANSIENT TABLE a.e (id int);
CREATE MATERIALIZED VIEW a.mv AS SELECT * FROM a.b;
CREATE VIEW a.v AS SELECT x.id FROM a.b x JOIN a.c y ON y.id = x.id;
SELECT * INTO TEMP scratch FROM a.b;`,
		`TRUNCATE TABLE a.b, c.d;
TRUNCATE a.b PARTITION (dt = '2026-01-01');
DROP TABLE IF EXISTS a.b, c.d;
DROP VIEW a.v;
INSERT OVERWRITE TABLE a.b PARTITION (dt='2026-01-01') SELECT * FROM c.d;
INSERT OVERWRITE a.b SELECT * FROM c.d;
INSERT INTO a.b REPLACE WHERE dt = '2026-01-01' SELECT * FROM c.d;
INSERT INTO a.b (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
COPY INTO a.b FROM @stage/x FILE_FORMAT = (TYPE = CSV);
COPY INTO @stage/out FROM a.b;
ALTER TABLE a.b SWAP WITH a.c;`,
		"SELECT `p`.x FROM `proj.ds.t` AS `p`, \"Quoted\" q RIGHT JOIN other o ON o.k = q.k FULL JOIN third h ON h.k = o.k;\n" +
			"SELECT * FROM (a JOIN b ON a.k = b.k) LEFT JOIN c ON c.k = b.k;\n" +
			"SELECT x FROM a UNION ALL SELECT y FROM b WHERE b.y > 1 EXCEPT SELECT z FROM c;\n" +
			"SELECT d.x FROM dim.d WHERE d.k = 1 AND EXISTS (SELECT 1 FROM f WHERE f.k = d.k);\n" +
			"SELECT * FROM t WHERE k = 1;\n",
	}
	for _, src := range sources {
		for _, st := range parsed(t, src).Statements {
			if st.Node == nil {
				continue
			}
			tf := st.TokenFacts()
			var want, got []string
			for _, w := range st.Writes() {
				want = append(want, describeWrite(src, fact.Write{Kind: w.Kind, Target: w.Target, Temporary: w.Temporary, Partitioned: w.Partitioned, Offset: w.Offset}))
			}
			for _, w := range tf.Writes {
				got = append(got, describeWrite(src, w))
			}
			for _, j := range st.Joins() {
				want = append(want, describeTokenJoin(src, st, j))
			}
			for _, j := range tf.Joins {
				got = append(got, describeTokenJoin(src, st, j.Join))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s\nfrom tokens:\n  %s\nfrom the tree:\n  %s", st.Text, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if !tf.Analysed() && (len(want) > 0) {
				t.Errorf("%s: not analysed from tokens", st.Text)
			}
		}
	}
}

// unparsed returns the only statement of src, which must not parse.
func unparsed(t *testing.T, src string) *Statement {
	t.Helper()
	f := Parse(src, Options{})
	if len(f.Statements) != 1 || f.Statements[0].Problem == nil {
		t.Fatalf("want one statement that does not parse: %.200q", src)
	}
	return f.Statements[0]
}

// asof is a join no PostgreSQL parser reads: Snowflake's ASOF JOIN with its
// MATCH_CONDITION.
const asof = "ASOF JOIN raw.quotes AS q MATCH_CONDITION (t.traded_at >= q.quoted_at) ON t.symbol = q.symbol"

func TestTokenFactsOfUnparsedStatements(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // writes, joins and named relations, described
	}{
		{"insert", "INSERT INTO analytics.fct_trades\nSELECT t.id, q.bid FROM raw.trades AS t " + asof + "\nWHERE t.trade_date >= '2026-01-14';",
			[]string{"INSERT analytics.fct_trades@1:13 kw@1:1", "raw.trades t@2:25 where@3:7", "raw.quotes q@2:51"}},
		{"merge from a query", "MERGE INTO analytics.f AS f USING (SELECT t.id FROM raw.trades t " + asof + ") s ON f.id = s.id WHEN MATCHED THEN DELETE;",
			[]string{"MERGE analytics.f@1:12 kw@1:1", "raw.trades t@1:53", "raw.quotes q@1:76"}},
		{"merge from a relation", "MERGE INTO analytics.f AS f USING stg.s AS s ON f.id = s.id WHEN MATCHED THEN UPDATE SET x = s.x MATCHES 1;",
			[]string{"MERGE analytics.f@1:12 kw@1:1", "stg.s s@1:35"}},
		{"create or replace", "CREATE OR REPLACE TABLE analytics.f AS SELECT t.id FROM raw.trades t " + asof + ";",
			[]string{"CREATE OR REPLACE analytics.f@1:25 kw@1:1", "raw.trades t@1:57", "raw.quotes q@1:80"}},
		{"update from", "UPDATE analytics.f SET x = t.x FROM raw.trades t " + asof + " WHERE f.id = t.id;",
			[]string{"UPDATE analytics.f@1:8 kw@1:1", "raw.trades t@1:37 where@1:150", "raw.quotes q@1:60"}},
		{"multi-table insert", "INSERT ALL INTO a.one VALUES (x) INTO a.two VALUES (y) SELECT x, y FROM raw.s;",
			[]string{"INSERT a.one@1:17 kw@1:1", "INSERT a.two@1:39 kw@1:1", "raw.s s@1:73"}},
		{"partition DDL", "ALTER TABLE db.t DROP IF EXISTS PARTITION (ds = '2024-01-01');",
			[]string{"TRUNCATE db.t@1:13 kw@1:1 partitioned"}},
		{"restore", "RESTORE TABLE `db`.`t` TO VERSION AS OF 3;",
			[]string{"named db.t@1:15"}},
		{"dynamic SQL", "EXECUTE IMMEDIATE FORMAT('INSERT INTO analytics.f SELECT * FROM raw.t WHERE ds = \"%s\"', d);",
			[]string{"INSERT analytics.f@1:39 kw@1:27", "raw.t t@1:65 where@1:77"}},
		// Normalisation rewrites a triple-quoted literal whole, so what is
		// read inside it points at its start.
		{"dynamic SQL, triple-quoted, two statements", "EXECUTE IMMEDIATE '''DELETE FROM a.t WHERE ds = '1'; INSERT INTO a.t SELECT * FROM b.s''';",
			[]string{"DELETE a.t@1:19 kw@1:19", "INSERT a.t@1:19 kw@1:19", "b.s s@1:19"}},
		// SQL concatenated from literals and values is read from the
		// literals where they stand; a name a value builds is not known.
		{"dynamic SQL, concatenated", "EXECUTE IMMEDIATE CONCAT(\"INSERT counts (ds, n) \", \"SELECT ds, n FROM \", d, \".INFORMATION_SCHEMA.PARTITIONS JOIN ref.days AS x ON x.ds = '\", @ds, \"'\");",
			[]string{"INSERT counts@1:34 kw@1:27", "ref.days x@1:114"}},
		{"dynamic SQL, ||, escapes", "EXECUTE IMMEDIATE '\\nDELETE FROM a.t WHERE ds = ' || d || '\\nAND k = 1' USING d;",
			[]string{"DELETE a.t@1:34 kw@1:22"}},
		{"dynamic SQL, a literal's WITH", "EXECUTE IMMEDIATE \"WITH a AS (SELECT * FROM x.y) INSERT INTO t.u SELECT * FROM a\";",
			[]string{"INSERT t.u@1:62 kw@1:50", "x.y y@1:45", "a a@1:80 cte"}},
		{"a write behind THEN", "IF ready THEN DELETE FROM a.t WHERE ds = '1' ELSE",
			[]string{"DELETE a.t@1:27 kw@1:15"}},
		{"a semantic view's tables", "TABLES (o AS shop.orders PRIMARY KEY (id) COMMENT = 'x', shop.customers) FACTS (o.amount AS amount)",
			[]string{"named shop.orders@1:14", "named shop.customers@1:58"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := unparsed(t, tt.src)
			tf := st.TokenFacts()
			var got []string
			for _, w := range tf.Writes {
				got = append(got, describeWrite(tt.src, w))
			}
			for _, j := range tf.Joins {
				got = append(got, describeTokenJoin(tt.src, st, j.Join))
			}
			for _, r := range tf.Named {
				got = append(got, "named "+r.Name()+"@"+facttest.At(tt.src, r.Offset))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
			if !tf.Analysed() || st.Coverage() != CoverageTokens {
				t.Errorf("not analysed from tokens (coverage %s)", st.Coverage())
			}
		})
	}
}

// TestTokenConditions checks the conditions of a statement read from its
// tokens: parsed on their own with positions in the original text, marked
// by where they stand, and read from tokens where even that fails.
func TestTokenConditions(t *testing.T) {
	src := "INSERT INTO s.t\nSELECT t.id FROM raw.trades t " + asof + "\n" +
		"WHERE t.trade_date >= CURRENT_DATE - 7 AND t.id IN (SELECT id FROM raw.ok WHERE ok_date < now())\n" +
		"  AND EXISTS(t.fills, f -> f.fill_date BETWEEN '2026-01-01' AND current_date);"
	st := unparsed(t, src)
	tf := st.TokenFacts()
	var got []string
	for _, c := range tf.Conds {
		d := fmt.Sprintf("sub=%v top=%v:", c.Sub, c.Top)
		for _, cj := range c.Conjuncts {
			if cj.Node != nil {
				d += fmt.Sprintf(" [parsed@%s now=%s]", exprAt(src, st, cj.Node), facttest.Offsets(src, NowCalls(st, cj.Node)))
				continue
			}
			d += fmt.Sprintf(" [tokens cols=%s now=%s bounds=%s]", strings.Join(cj.Columns, ","), facttest.Offsets(src, cj.Now), facttest.Bounds(src, cj.Bounds))
		}
		got = append(got, d)
	}
	want := []string{
		"sub=false top=false: [parsed@2:105 now=]",
		"sub=false top=false: [parsed@3:7 now=3:23] [parsed@3:44 now=3:91] [tokens cols=fills,f,fill_date now=4:65 bounds=]",
		"sub=true top=false: [parsed@3:81 now=3:91]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	// An OR at the top keeps the condition whole; without one, each part
	// is parsed on its own.
	del := unparsed(t, "DELETE FROM s.t WHERE t.day BETWEEN '2026-01-01' AND DATE '2026-01-31' AND t.x MATCHES 1 OR t.y;")
	c := del.TokenFacts().Conds[0]
	if len(c.Conjuncts) != 1 || c.Conjuncts[0].Node != nil || !c.Top {
		t.Fatalf("want one top-level conjunct read from tokens, got %+v", c)
	}
	parts := unparsed(t, "DELETE FROM s.t WHERE '2026-01-01' <= t.day AND t.x MATCHES 1;").TokenFacts().Conds[0].Conjuncts
	if len(parts) != 2 || parts[0].Node == nil || parts[1].Node != nil {
		t.Fatalf("want a parsed conjunct and one read from tokens, got %+v", parts)
	}
}

// TestTokenJoinsPartial: a join whose conditions did not all parse is
// marked, so rules do not conclude from what they could not read.
func TestTokenJoinsPartial(t *testing.T) {
	st := unparsed(t, "SELECT t.id FROM raw.trades t "+asof+
		"\nJOIN dim.c AS d ON d.id = t.cid AND EXISTS(d.periods, p -> t.ts < p.valid_to)\nJOIN dim.e AS e ON e.id = t.eid\nWHERE e.flag MATCHES 1;")
	partial := map[string]bool{}
	for _, j := range st.TokenFacts().Joins {
		partial[j.Relation.Name()] = j.Partial
	}
	// Every ON of a clause is read for each of its relations, so one that
	// does not parse leaves them all partial; the WHERE only its own.
	want := map[string]bool{"raw.trades": true, "raw.quotes": true, "dim.c": true, "dim.e": true}
	if fmt.Sprint(partial) != fmt.Sprint(want) {
		t.Errorf("partial = %v, want %v", partial, want)
	}
	st = unparsed(t, "SELECT t.id FROM raw.trades t "+asof+"\nJOIN dim.e AS e ON e.id = t.eid\nWHERE e.flag MATCHES 1;")
	for _, j := range st.TokenFacts().Joins {
		if j.Partial != (j.Alias == "e") {
			t.Errorf("%s: partial %v", j.Relation.Name(), j.Partial)
		}
	}
}

// TestTokenFactsBounded: hostile statements cost time in proportion to
// their length, and the parser is called a bounded number of times.
func TestTokenFactsBounded(t *testing.T) {
	src := "DELETE FROM s.t WHERE " + strings.Repeat("x MATCHES 1 AND ", 2000) + "t.day >= current_date;"
	st := unparsed(t, src)
	c := st.TokenFacts().Conds[0]
	if len(c.Conjuncts) != 2001 {
		t.Fatalf("%d conjuncts, want 2001", len(c.Conjuncts))
	}
	last := c.Conjuncts[2000]
	if last.Node != nil || len(last.Now) != 1 || strings.Join(last.Columns, ",") != "day" {
		t.Errorf("the conjunct past the parse budget is not read from its tokens: %+v", last)
	}
	deep := "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 3000) + "t" + strings.Repeat(") s", 3000) + " WHERE (;"
	if tf := unparsed(t, deep).TokenFacts(); tf.Analysed() {
		t.Errorf("relations below the nesting limit were read: %+v", tf.Joins)
	}
	joins := "SELECT * FROM " + strings.Repeat("((", 2000) + "a JOIN b ON a.k = b.k" + strings.Repeat("))", 2000) + " WHERE (;"
	unparsed(t, joins).TokenFacts()
}

func TestCoverage(t *testing.T) {
	f := Parse("SELECT 1;\nSELECT * FROM t WHERE WHERE;\nSELECT 1 +;\nSELECT 'open", Options{})
	var got []string
	for _, st := range f.Statements {
		got = append(got, st.Coverage().String())
	}
	if want := "parsed tokens none none"; strings.Join(got, " ") != want {
		t.Errorf("coverage = %q, want %q", strings.Join(got, " "), want)
	}
}

// TestRealWorldCoverage reads every file of the real-world corpus,
// whoever wrote it: at least 95% of the statements must parse, and every
// one that does not must be analysed from its tokens. The shares are
// logged per dialect, guessed as bflint --stats guesses them.
func TestRealWorldCoverage(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", "realworld", "*.sql"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	type tally struct{ statements, parsed, tokens int }
	byDialect := map[string]*tally{}
	var all tally
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src, name := string(b), filepath.Base(path)
		d := dialect.Guess(src)
		n := byDialect[d]
		if n == nil {
			n = &tally{}
			byDialect[d] = n
		}
		for _, st := range Parse(src, Options{}).Statements {
			n.statements++
			all.statements++
			switch st.Coverage() {
			case CoverageParsed:
				n.parsed++
				all.parsed++
			case CoverageTokens:
				n.tokens++
				all.tokens++
				t.Logf("analysed from tokens: %s:%s: %s", name, facttest.At(src, st.Problem.Offset), st.Problem.Msg)
			default:
				t.Errorf("%s:%s: neither parsed nor analysed from tokens: %s", name, facttest.At(src, st.Start), st.Problem.Msg)
			}
		}
	}
	var dialects []string
	for d := range byDialect {
		dialects = append(dialects, d)
	}
	sort.Strings(dialects)
	for _, d := range append(dialects, "all") {
		n := byDialect[d]
		if d == "all" {
			n = &all
		}
		t.Logf("%-10s %4d statements: %5.1f%% parsed, %4.1f%% from tokens", d, n.statements,
			100*float64(n.parsed)/float64(n.statements), 100*float64(n.tokens)/float64(n.statements))
	}
	if share := float64(all.parsed) / float64(all.statements); share < 0.95 {
		t.Errorf("%.1f%% of the corpus's %d statements parse, want at least 95%%", 100*share, all.statements)
	}
}

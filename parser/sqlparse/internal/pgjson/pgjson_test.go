package pgjson

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// handWritten exercises what the corpora may miss, above all the Integers
// pg_query's JSON leaves out.
var handWritten = []string{
	"",
	"   ",
	"-- only a comment",
	"SELECT 1",
	"SELECT 0, -0, -1, - 1, -(2), - ( - 3), -/* c */4, -\n5, 2147483647, -2147483647, 2147483648, -2147483648, 9223372036854775807, 99999999999999999999999",
	"SELECT 0x1F, -0x10, 0o17, -0b101, 1_000_000, -1_000, 0x0, -0o0",
	"SELECT 1.5, -1.5, .5, 1e10, -1e-10, 1.0E+3, -0.0",
	"SELECT 'it''s', E'tab\\there\\nnewline \\\\ \\'', 'a<b>c', U&'d\\0061t\\+000061', '\"quoted\"', 'back\\slash'",
	"SELECT 'naïve café', '日本語', '😀 astral 𝄞', U&'\\+01F600', E'\\u00e9\\U0001F600', '\x01\x1f control'",
	"SELECT true, false, NULL, TRUE AND NOT FALSE, x IS NULL, y IS NOT TRUE",
	"SELECT B'1010', X'1F', b'', B'0'",
	"SELECT $1, $2::int, $3::text[]",
	"WITH a AS (SELECT 1 AS x), b AS MATERIALIZED (SELECT x FROM a) SELECT * FROM b",
	"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r",
	"SELECT sum(x) OVER (PARTITION BY a ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), row_number() OVER w, lag(x, -1) OVER w FROM t WINDOW w AS (ORDER BY c DESC NULLS LAST)",
	"SELECT avg(x) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1 day' PRECEDING AND INTERVAL '-1 day' FOLLOWING EXCLUDE TIES) FROM t",
	"SELECT count(*) FILTER (WHERE x > 0), array_agg(DISTINCT y ORDER BY y), percentile_cont(0.5) WITHIN GROUP (ORDER BY z) FROM t GROUP BY ROLLUP (a, b), CUBE (c), GROUPING SETS ((a), ())",
	`MERGE INTO t USING s ON t.k = s.k
	 WHEN MATCHED AND s.del THEN DELETE
	 WHEN MATCHED AND s.v < 0 THEN UPDATE SET v = s.v, n = -1
	 WHEN MATCHED THEN DO NOTHING
	 WHEN NOT MATCHED AND s.v > 0 THEN INSERT (k, v) VALUES (s.k, s.v)
	 WHEN NOT MATCHED THEN INSERT DEFAULT VALUES`,
	"INSERT INTO t (a, b) VALUES (1, -2), (DEFAULT, 0) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b - 1 WHERE t.b <> 0 RETURNING *",
	"INSERT INTO t SELECT * FROM s ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING",
	"INSERT INTO t OVERRIDING SYSTEM VALUE VALUES (1)",
	`CREATE TABLE IF NOT EXISTS s.t (
		id bigint GENERATED ALWAYS AS IDENTITY (START WITH -10 INCREMENT BY -1 MINVALUE -100),
		a int NOT NULL DEFAULT -1 CHECK (a >= -5),
		b text[] UNIQUE,
		c numeric(10, -2)[3][],
		d int ARRAY[0],
		e int ARRAY,
		f timestamptz DEFAULT now() REFERENCES u (x) MATCH FULL ON DELETE CASCADE ON UPDATE SET NULL,
		g varchar(20) COLLATE "C" GENERATED ALWAYS AS (upper(b[1])) STORED,
		PRIMARY KEY (id) INCLUDE (a),
		CONSTRAINT u1 UNIQUE NULLS NOT DISTINCT (a, c),
		FOREIGN KEY (a) REFERENCES v (y) DEFERRABLE INITIALLY DEFERRED,
		EXCLUDE USING gist (f WITH &&)
	) PARTITION BY RANGE (f) WITH (fillfactor = 70, autovacuum_enabled = false)`,
	"CREATE TABLE p1 PARTITION OF t FOR VALUES FROM (MINVALUE) TO ('2026-01-01')",
	"CREATE TABLE h0 PARTITION OF t FOR VALUES WITH (MODULUS 4, REMAINDER 0)",
	"CREATE TEMP TABLE x AS SELECT 1 WITH NO DATA",
	"CREATE UNLOGGED TABLE y (LIKE t INCLUDING ALL)",
	"ALTER TABLE t ADD COLUMN IF NOT EXISTS z int DEFAULT 0, DROP COLUMN w CASCADE, ALTER COLUMN a SET STATISTICS -1, ALTER COLUMN b SET (n_distinct = -1), ALTER COLUMN c TYPE bigint USING c::bigint",
	"ALTER TABLE t RENAME TO u",
	"ALTER TABLE t ALTER COLUMN a SET STATISTICS 0",
	"ALTER TABLE ONLY t ATTACH PARTITION p FOR VALUES IN (1, -1, 0)",
	"CREATE SEQUENCE s INCREMENT -1 START 0 MINVALUE -10 MAXVALUE 0 CACHE 1 NO CYCLE",
	"ALTER SEQUENCE s RESTART WITH -5",
	"COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ',', NULL '')",
	"COPY (SELECT * FROM t WHERE a > -1) TO '/dev/null' (FORMAT binary)",
	"GRANT SELECT, INSERT (a, b) ON TABLE t TO alice, GROUP bob WITH GRANT OPTION",
	"REVOKE ALL PRIVILEGES ON ALL TABLES IN SCHEMA s FROM PUBLIC CASCADE",
	"GRANT r TO u WITH ADMIN OPTION",
	`CREATE OR REPLACE FUNCTION f(a int DEFAULT -1, OUT b text) RETURNS SETOF record
	 LANGUAGE plpgsql STABLE STRICT COST 0.5 ROWS 10 AS $body$
	 BEGIN
	   RETURN QUERY SELECT a, 'x<y>' || E'\n';
	 END
	 $body$`,
	"CREATE FUNCTION g() RETURNS int LANGUAGE sql IMMUTABLE RETURN -1",
	"CREATE AGGREGATE agg(int) (SFUNC = f, STYPE = int, INITCOND = '-1')",
	"CREATE AGGREGATE pct(float8 ORDER BY float8) (SFUNC = f, STYPE = internal)",
	"SELECT j -> 'a' ->> 0, j #> '{a,b}', j #>> '{a}', j @> '{\"a\":1}', j ? 'k', j ?| array['a'], j - 'a', j::jsonb -> -1 FROM t",
	"SELECT jsonb_build_object('k', -1), '{\"x\": [1, -2.5, null]}'::json, JSON_OBJECT('a' VALUE 1), x IS JSON OBJECT",
	"SELECT ARRAY[1, -2, 0], ARRAY[[1], [2]], a[1], a[-1], a[0], a[1:2], a[:0], (a)[2:], '{}'::int[], ARRAY[]::text[][]",
	"SELECT CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 ELSE 0 END, CASE b WHEN 1 THEN 'x' END, COALESCE(c, 0), NULLIF(d, -1), GREATEST(1, -1), LEAST(0, 2)",
	"SELECT * FROM t WHERE a IN (SELECT b FROM u) AND EXISTS (SELECT 1 FROM v WHERE v.k = t.k) AND c > ALL (SELECT -1) AND (SELECT max(x) FROM w) > 0",
	"SELECT * FROM (SELECT 1) AS s(a), LATERAL (SELECT a + 1) l, unnest(ARRAY[1, 2]) WITH ORDINALITY AS u(x, n) JOIN v USING (k) LEFT JOIN w ON true FULL JOIN z ON z.a = -1",
	"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT ALL SELECT -4 ORDER BY 1 DESC LIMIT 0 OFFSET 0",
	"(SELECT 1) UNION ALL (SELECT 2 LIMIT -1)",
	"SELECT 1 ORDER BY 1 FETCH FIRST 5 ROWS WITH TIES",
	"SELECT a::int, CAST(b AS numeric(12, 2)), c::varchar(10)[], d::double precision, e::timestamp(0) with time zone, f::bit varying(5), '1'::\"char\", g::s.mytype[]",
	"SELECT interval '1 day', INTERVAL '-2 hours', interval '1' day, interval '1:30' hour to minute, interval(0) '1 s', INTERVAL '1.5' SECOND(0), '1 year'::interval",
	"SELECT current_date - 1, now() - interval '7 days', extract(epoch FROM ts), date_trunc('day', ts) + INTERVAL '1 day' * -1, CURRENT_TIMESTAMP(3), LOCALTIME(0)",
	"SELECT x FROM t TABLESAMPLE SYSTEM (10) REPEATABLE (0)",
	"SELECT * FROM t FOR UPDATE OF t SKIP LOCKED",
	"SELECT substring(s FROM 2 FOR 3), overlay(s PLACING 'x' FROM 1), position('a' IN s), trim(BOTH 'x' FROM s), s SIMILAR TO 'a%', s ILIKE '%b', s !~ 'c'",
	"SELECT a BETWEEN -1 AND 1, b NOT BETWEEN SYMMETRIC 0 AND -5, c IS DISTINCT FROM d, e COLLATE \"C\", f AT TIME ZONE 'UTC', ROW(1, -1, 0), (1, 2) = (3, 4)",
	"SELECT xmlroot(xmlparse(document '<a/>'), version '1.0', standalone yes), xmlelement(name foo, xmlattributes(1 AS bar))",
	"DELETE FROM t USING u WHERE t.k = u.k AND t.d < current_date - 30 RETURNING t.*",
	"UPDATE t SET (a, b) = (SELECT 1, -1), c = DEFAULT FROM u WHERE t.k = u.k",
	"TRUNCATE t, u RESTART IDENTITY CASCADE",
	"BEGIN ISOLATION LEVEL SERIALIZABLE, READ WRITE, NOT DEFERRABLE",
	"SET TRANSACTION READ ONLY, DEFERRABLE",
	"SET statement_timeout = 0; SET search_path TO a, b; SET x = -1; RESET ALL",
	"SET LOCAL work_mem = '64MB'",
	"VACUUM (VERBOSE, PARALLEL 0) t",
	"EXPLAIN (ANALYZE, COSTS false) SELECT 1",
	"FETCH BACKWARD 5 FROM c; FETCH -3 FROM c; MOVE ABSOLUTE -1 IN c; FETCH ALL FROM c",
	"CREATE INDEX CONCURRENTLY IF NOT EXISTS i ON t USING btree (lower(a) DESC NULLS FIRST, b) INCLUDE (c) WHERE d > 0",
	"CREATE VIEW v (a, b) WITH (security_barrier) AS SELECT 1, -1 WITH CASCADED CHECK OPTION",
	"CREATE MATERIALIZED VIEW mv AS SELECT * FROM t WITH DATA",
	"DROP TABLE IF EXISTS a, b CASCADE",
	"DROP AGGREGATE agg(int)",
	"COMMENT ON COLUMN t.a IS 'the <a> column'",
	"CREATE SCHEMA IF NOT EXISTS s AUTHORIZATION u",
	"CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
	"CREATE DOMAIN pos AS int CHECK (VALUE > 0) DEFAULT 1",
	"CREATE TRIGGER tr BEFORE INSERT OR UPDATE OF a ON t FOR EACH ROW WHEN (NEW.a <> 0) EXECUTE FUNCTION f()",
	"DO $$ BEGIN PERFORM 1; END $$",
	"ANALYZE t (a, b)",
	"CREATE ROLE r WITH LOGIN CONNECTION LIMIT -1 PASSWORD 'x'",
	"ALTER ROLE r CONNECTION LIMIT 0",
	"LOCK TABLE t IN ACCESS EXCLUSIVE MODE NOWAIT",
	"SELECT 1; SELECT 2;; SELECT -3",
	"SELECT \"Weird \"\"Name\"\"\", \"日本\" FROM \"Sch\".\"Tab\"",
	"SELECT a.b.c.d, t.*, (t).x, (f(1)).y[-1]",
	"SELECT - 1 + -(- 1) * +1, @ -5, |/ 0, ~ -1, 2 ^ -1, -2 ^ 2, !!-1",
	"SELECT 1 -- trailing comment\n, -2 /* block /* nested */ */",
}

// TestParseMatchesProtobuf compares Parse with pg_query.Parse on the
// hand-written statements; parser/sqlparse's tests compare them on every
// statement of the corpora, normalised as bflint hands them over.
func TestParseMatchesProtobuf(t *testing.T) {
	viaProtobuf := 0
	for _, text := range handWritten {
		want, wantErr := pg_query.Parse(text)
		if wantErr != nil {
			t.Errorf("hand-written %q does not parse: %v", text, wantErr)
			continue
		}
		got, gotErr := Parse(text)
		if gotErr != nil {
			t.Errorf("%q: %v", text, gotErr)
			continue
		}
		if !proto.Equal(want, got) {
			t.Errorf("%q: trees differ\nprotobuf: %s\nfast:     %s", text, prototext.Format(want), prototext.Format(got))
		}
		d, err := newJSONDecoder(jsonOf(t, text))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.parseResult(); err == nil && !d.repair(text) {
			viaProtobuf++
			t.Logf("through protobuf: %.80q", text)
		}
		d.release()
	}
	t.Logf("%d hand-written statements, %d through the protobuf fallback", len(handWritten), viaProtobuf)
}

// sameError reports whether two parse errors are the same: same type and,
// for pg_query's, the same message and cursor.
func sameError(got, want error) bool {
	if got == nil || reflect.TypeOf(got) != reflect.TypeOf(want) {
		return false
	}
	var g, w *pgparser.Error
	if errors.As(got, &g) && errors.As(want, &w) {
		return *g == *w
	}
	return got.Error() == want.Error()
}

func TestParseFastErrors(t *testing.T) {
	for _, text := range []string{
		"SELECT FROM WHERE",
		"SELECT 'naïve' AS a,\tx FROM t WHERE WHERE x",
		"SELECT 'unterminated",
		"SELECT (1",
		"CREATE TABLE (a int)",
		"MERGE INTO t USING s ON true WHEN MATCHED THEN INSERT VALUES (1)",
		"SELECT 1 1",
		"SELECT E'\\xff'",
	} {
		_, want := pg_query.Parse(text)
		_, got := Parse(text)
		var pe *pgparser.Error
		if !errors.As(want, &pe) {
			t.Fatalf("%q: pg_query.Parse gave %v, want a parser error", text, want)
		}
		if !sameError(got, want) {
			t.Errorf("%q: error %#v, want %#v", text, got, want)
		}
	}
}

// TestParseFastDepthLimit: protobuf refuses trees nesting more than
// 10000 messages, and Parse must fail alike. Each "+1" nests two.
func TestParseFastDepthLimit(t *testing.T) {
	for _, n := range []int{4995, 4996} {
		text := "SELECT 1" + strings.Repeat("+1", n)
		want, wantErr := pg_query.Parse(text)
		got, gotErr := Parse(text)
		if (wantErr == nil) != (n == 4995) {
			t.Fatalf("%d terms: pg_query.Parse gave %v; has protobuf's limit moved?", n, wantErr)
		}
		if wantErr != nil {
			if gotErr == nil || gotErr.Error() != wantErr.Error() {
				t.Errorf("%d terms: error %v, want %v", n, gotErr, wantErr)
			}
			if _, err := decodeParseResult(jsonOf(t, text)); !errors.Is(err, errTooDeep) {
				t.Errorf("%d terms: decodeParseResult gave %v", n, err)
			}
		} else if !proto.Equal(want, got) {
			t.Errorf("%d terms: trees differ", n)
		}
	}
}

// jsonOf returns pg_query's JSON for text.
func jsonOf(t testing.TB, text string) string {
	t.Helper()
	js, err := pg_query.ParseToJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func TestDecodeTruncatedAndGarbled(t *testing.T) {
	// Small enough to decode once per byte, with every kind of value.
	js := jsonOf(t, `SELECT 0, -1, 1.5, 'a<b\\c"', E'\\n\\t', '😀', B'101', true, false, null, x::int[]
		FROM t WHERE a IN (SELECT b FROM u) ORDER BY 1 DESC LIMIT 0;
		MERGE INTO t USING s ON t.k = s.k WHEN MATCHED AND s.del THEN DELETE
		WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, -1)`)
	if _, err := decodeParseResult(js); err != nil {
		t.Fatal(err)
	}
	for n := range len(js) {
		if _, err := decodeParseResult(js[:n]); err == nil {
			t.Fatalf("prefix of %d bytes decoded without error", n)
		}
	}
	// Garble one byte at a time: there may or may not be an error, but
	// there must be no panic.
	b := []byte(js)
	for i := range b {
		for _, c := range []byte{'"', '}', ']', ',', '\\', '-', 'n', 0xff} {
			old := b[i]
			b[i] = c
			decodeParseResult(string(b))
			b[i] = old
		}
	}
}

func TestDecodeWhitespaceAndNames(t *testing.T) {
	js := jsonOf(t, strings.Join(handWritten, ";\n"))
	// Re-indented by encoding/json, the document has blanks between all
	// tokens and its keys in another order.
	var sb strings.Builder
	var v any
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&sb)
	enc.SetIndent(" \r", "\t ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	// Compare with the compact document's tree, not pg_query.Parse's:
	// only Parse restores the Integers the JSON leaves out.
	compact, err := decodeParseResult(js)
	if err != nil {
		t.Fatal(err)
	}
	spaced, err := decodeParseResult(" \n" + sb.String() + "\t")
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(compact, spaced) {
		t.Error("blanks or key order change the decoded tree")
	}

	// Proto names, quoted 64-bit numbers and enum numbers are protobuf JSON too.
	doc := `{"version":"160001","stmts":[{"stmt":{"SelectStmt":{"limit_option":1,"op":"SETOP_NONE","target_list":[{"ResTarget":{"val":{"A_Const":{"ival":{"ival":"7"},"location":"7"}},"location":7}}]}},"stmt_location":0,"stmt_len":8}]}`
	got, err := decodeParseResult(doc)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := pg_query.Parse("SELECT 7")
	if err != nil {
		t.Fatal(err)
	}
	exp.Stmts[0].StmtLen = 8
	if !proto.Equal(got, exp) {
		t.Errorf("got %s\nwant %s", prototext.Format(got), prototext.Format(exp))
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, doc := range []string{
		``,
		`[]`,
		`{"version":1,"stmts":[]} x`,
		`{"version":1,"bogus":2}`,
		`{"stmts":[{"stmt":{"NoSuchNode":{}}}]}`,
		`{"stmts":[{"stmt":{"SelectStmt":{"op":"NO_SUCH_OP"}}}]}`,
		`{"stmts":[{"stmt":{"SelectStmt":{}, "InsertStmt":{}}}]}`,
		`{"stmts":[{"stmt":{"A_Const":{"ival":{}, "sval":{}}}}]}`,
		`{"stmts":[{"stmt":{"String":{"sval":"\x01"}}}]}`,
		`{"stmts":[{"stmt":{"String":{"sval":"\ud800\x"}}}]}`,
		`{"stmts":[{"stmt":{"String":{"sval":"` + "\xff" + `"}}}]}`,
		`{"stmts":[{"stmt":{"Integer":{"ival":2147483648}}}]}`,
		`{"stmts":[{"stmt":{"Integer":{"ival":1.5}}}]}`,
		`{"stmts":[{"stmt":{"Boolean":{"boolval":1}}}]}`,
		`{"stmts":[{"stmt":{"List":{"items":[1]}}}]}`,
		`{"stmts":[{"stmt":{"List":{"items":[null]}}}]}`,
		`{"stmts":[{"stmt":{"List":{"items":[{},]}}}]}`,
		`{"version":1,}`,
		`{"version" 1}`,
	} {
		if res, err := decodeParseResult(doc); err == nil {
			t.Errorf("%q decoded: %v", doc, res)
		}
	}
}

func TestDecodeStrings(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " backslash \ slash /`, "\b\f\n\r\t\x00\x1f", "<>&", "é日本😀𝄞",
		"\u2028\u2029", "\ufffd",
	} {
		lit, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		checkString(t, string(lit))
	}
	for _, lit := range []string{
		`"\u00e9\u65E5"`, `"\ud83d\ude00"`, `"\uD834\uDD1E x"`, `"\ud800"`, `"\udc00\ud800"`,
		`"\ud800\u0041"`, `"\ud800\\"`, `"a\/b"`, `"\u0000"`,
	} {
		checkString(t, lit)
	}
}

// checkString decodes a JSON string literal as a String node's value and
// compares the result with encoding/json's.
func checkString(t *testing.T, lit string) {
	t.Helper()
	var want string
	if err := json.Unmarshal([]byte(lit), &want); err != nil {
		t.Fatal(err)
	}
	res, err := decodeParseResult(`{"stmts":[{"stmt":{"String":{"sval":` + lit + `}}}]}`)
	if err != nil {
		t.Errorf("%s: %v", lit, err)
		return
	}
	if got := res.Stmts[0].Stmt.GetString_().Sval; got != want {
		t.Errorf("%s: got %q, want %q", lit, got, want)
	}
}

func TestConstAt(t *testing.T) {
	for _, c := range []struct {
		text string
		want int32
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"- 1", -1, true}, {"-(2)", -2, true}, {"- ( - 3)", 0, false},
		{"- - - 3", -3, true}, {"-/* c */4", -4, true}, {"- -- c\n5", -5, true}, {"+0", 0, true},
		{"-0x10", -16, true}, {"-0o17", -15, true}, {"-0b101", -5, true}, {"-1_000", -1000, true},
		{"-2147483648", -2147483648, true}, {"-2147483649", 0, false}, {"1", 0, false},
		{"-1.5", 0, false}, {"-1e3", 0, false}, {"-1x", 0, false}, {"-", 0, false}, {"-$1", 0, false},
		{"READ WRITE", 0, true}, {"-1_", 0, false}, {"-1__0", 0, false},
	} {
		got, ok := constAt(c.text, 0)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("constAt(%q) = %d, %v; want %d, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// BenchmarkDecode is the decoding alone, without the parser, of the
// hand-written statements and those of testdata/sql/realworld that parse
// as they are written (parser/sqlparse benchmarks the whole parse of the
// normalised corpus).
func BenchmarkDecode(b *testing.B) {
	var docs []string
	for _, s := range decodeStatements(b) {
		docs = append(docs, jsonOf(b, s))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, js := range docs {
			if _, err := decodeParseResult(js); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseSized is the parse and the decoding of the same
// statements, as the parser's callers pay for them.
func BenchmarkParseSized(b *testing.B) {
	stmts := decodeStatements(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range stmts {
			if _, _, err := ParseSized(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func decodeStatements(tb testing.TB) []string {
	out := append([]string(nil), handWritten...)
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "testdata", "sql", "realworld", "*.sql"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpus files: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		stmts, err := pg_query.SplitWithScanner(string(src), true)
		if err != nil {
			continue
		}
		for _, st := range stmts {
			if _, err := pg_query.Parse(st); err == nil {
				out = append(out, st)
			}
		}
	}
	return out
}

// decodeParseResult decodes pg_query's JSON parse tree. An Integer whose
// value the JSON leaves out reads as 0; see Parse.
func decodeParseResult(data string) (*pg_query.ParseResult, error) {
	d, err := newJSONDecoder(data)
	if err != nil {
		return nil, err
	}
	defer d.release()
	return d.parseResult()
}

// TestErrorsAreParseToJSONs: the JSON is read where the C library wrote
// it, and a statement it rejects still fails with the error, cursor
// position included, that pg_query.ParseToJSON returns.
func TestErrorsAreParseToJSONs(t *testing.T) {
	for _, sql := range []string{"SELECT FROM WHERE", "SELECT 1 +", "INSERT INTO t VALUES (1,", "SELECT 'open"} {
		_, want := pg_query.ParseToJSON(sql)
		_, _, got := ParseSized(sql)
		if want == nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: ParseSized error %#v, ParseToJSON's %#v", sql, got, want)
		}
	}
}

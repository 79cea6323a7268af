package sqlparse

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzStatementFacts runs the whole front end (normalisation, Jinja,
// splitting, parsing) and then every statement helper the rules use, on
// parsed and on token-analysed statements alike: none may panic, and every
// offset they return must lie in the file.
func FuzzStatementFacts(f *testing.F) {
	for _, dir := range []string{"dialects", "realworld"} {
		paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "sql", dir, "*.sql"))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	for _, s := range []string{
		"MERGE INTO t USING (SELECT * FROM s WHERE d BETWEEN '2026-01-01' AND '2026-01-31') s ON t.k = s.k WHEN NOT MATCHED THEN INSERT (k) VALUES (s.k)",
		"BEGIN; DELETE FROM t WHERE ds = '2026-01-01'; INSERT INTO t SELECT * FROM s; COMMIT;",
		"SELECT * FROM f JOIN d ON d.k = f.k AND f.ts >= d.valid_from AND f.ts < COALESCE(d.valid_to, '9999-12-31')",
		"INSERT INTO t SELECT * FROM s WHERE ds >= current_date - 1",
		"PIVOT", "EXECUTE IMMEDIATE '''INSERT INTO t VALUES (1)'''", "WITH a AS (SELECT 1) SELECT * FROM a, b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file := Parse(src, Options{ModelName: "m"})
		in := func(what string, off int) {
			if off < -1 || off > len(src) {
				t.Fatalf("%s offset %d outside a file of %d bytes", what, off, len(src))
			}
		}
		for _, p := range file.Problems {
			in("problem", p.Offset)
		}
		for i, st := range file.Statements {
			in("statement", st.Start)
			file.InTransaction(i)
			if st.Node == nil {
				if tf := st.TokenFacts(); tf != nil {
					tf.Analysed()
				}
				continue
			}
			for _, w := range st.Writes() {
				in("write", w.Target.Offset)
			}
			for _, r := range st.Reads() {
				in("read", r.Offset)
			}
			for _, j := range st.Joins() {
				in("join", j.Offset)
				for _, b := range Bounds(st, j.On) {
					in("bound", b.Offset)
				}
			}
			if m, ok := st.Merge(); ok {
				in("merge", m.Offset)
			}
			if sel := st.Select(); sel != nil {
				st.GroupBy(sel)
				HavingCountGreaterThanOne(sel)
				for _, c := range NowCalls(st, sel.GetWhereClause()) {
					in("now", c)
				}
			}
		}
	})
}

package sqlparse

import (
	"slices"
	"strings"
	"testing"
)

// boundsOf lists "column op value" for every bound of the conditions,
// each checked to point at its literal in src.
func boundsOf(t *testing.T, cs []Condition, src string) string {
	t.Helper()
	var out []string
	for _, c := range cs {
		for _, b := range c.Bounds() {
			if !strings.HasPrefix(src[b.Value.Offset:], "'"+b.Value.Text+"'") {
				t.Errorf("bound %s %s %s points at %.12q", b.Column, b.Op, b.Value.Text, src[b.Value.Offset:])
			}
			out = append(out, b.Column+" "+b.Op+" "+b.Value.Text)
		}
	}
	return strings.Join(out, ", ")
}

func TestWriteConditions(t *testing.T) {
	cases := []struct{ src, want string }{
		// The query that feeds the INSERT chooses its rows, through its CTE;
		// a subquery that computes a value does not.
		{"WITH r AS (SELECT * FROM s WHERE d >= '2026-01-01') INSERT INTO t SELECT * FROM r WHERE d <= '2026-01-31' AND x IN (SELECT x FROM u WHERE d = '2025-01-01')",
			"d >= 2026-01-01, d <= 2026-01-31"},
		// A MERGE: its ON, its WHEN conditions and its source query.
		{"MERGE INTO t USING (SELECT * FROM s WHERE d >= '2026-02-01') AS s ON t.k = s.k AND t.d <= '2026-02-28' WHEN MATCHED AND s.d < '2026-03-01' THEN UPDATE SET v = s.v",
			"d <= 2026-02-28, d < 2026-03-01, d >= 2026-02-01"},
		// Databricks' REPLACE WHERE, parsed on its own, at its offsets in the file.
		{"INSERT INTO t REPLACE WHERE d >= '2026-04-01' SELECT * FROM s", "d >= 2026-04-01"},
	}
	for _, c := range cases {
		st := Parse(c.src, Options{}).Statements[0]
		w, ok := st.Write()
		if !ok {
			t.Fatalf("%q: no write", c.src)
		}
		if got := boundsOf(t, st.WriteConditions(w), c.src); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

func TestConditionsEverywhere(t *testing.T) {
	src := "SELECT * FROM a JOIN b ON a.k = b.k AND b.d >= '2026-01-01' WHERE a.d <= '2026-01-31' AND a.x IN (SELECT x FROM c WHERE c.d = '2025-12-31')"
	st := Parse(src, Options{}).Statements[0]
	// In the order the tree holds them: the WHERE, the join's ON, the
	// subquery's WHERE.
	if got, want := boundsOf(t, st.Conditions(), src), "d <= 2026-01-31, d >= 2026-01-01, d = 2025-12-31"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var cols []string
	for _, c := range st.Conditions() {
		cols = append(cols, c.Columns()...)
	}
	if want := []string{"d", "x", "x", "d", "k", "k", "d", "d"}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
}

// TestTokenWriteConditions reads the conditions of a statement the parser
// rejects from its tokens.
func TestTokenWriteConditions(t *testing.T) {
	src := "DELETE FROM t WHERE d >= '2026-01-01' AND d <= '2026-01-31' AND x MATCH_CONDITION (y)"
	st := Parse(src, Options{}).Statements[0]
	if st.Node != nil {
		t.Fatalf("%q parsed; the test needs a statement read from tokens", src)
	}
	tf := st.TokenFacts()
	if tf == nil || len(tf.Writes) == 0 {
		t.Fatal("no token facts")
	}
	if got, want := boundsOf(t, st.TokenWriteConditions(tf, tf.Writes[0]), src), "d >= 2026-01-01, d <= 2026-01-31"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

package sqlparse

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
)

func TestRelationKeepsWrittenCase(t *testing.T) {
	src := `SELECT * FROM Raw."Orders Events" AS o JOIN ONLY dim.Customers c ON true`
	st := Parse(src, Options{}).Statements[0]
	var got []string
	for _, r := range st.Reads() {
		got = append(got, r.Name()+"@"+facttest.At(src, r.Offset))
	}
	// The position is the name's, after ONLY.
	if want := "Raw.Orders Events@1:15 dim.Customers@1:50"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestRelationKeepsLongNames(t *testing.T) {
	long := "events_" + strings.Repeat("daily_rollup_", 6) + "v2"
	src := "INSERT INTO analytics." + long + " SELECT * FROM raw." + long
	st := Parse(src, Options{}).Statements[0]
	w, ok := st.Write()
	if !ok || w.Target.Name() != "analytics."+long {
		t.Errorf("written %q, want the name as written, %q", w.Target.Name(), "analytics."+long)
	}
	if reads := st.Reads(); len(reads) != 1 || reads[0].Name() != "raw."+long {
		t.Errorf("reads %v, want raw.%s", reads, long)
	}
}

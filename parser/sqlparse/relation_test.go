package sqlparse

import (
	"strings"
	"testing"
)

func TestRelationKeepsWrittenCase(t *testing.T) {
	src := `SELECT * FROM Raw."Orders Events" AS o JOIN ONLY dim.Customers c ON true`
	st := Parse(src, Options{}).Statements[0]
	var got []string
	for _, r := range st.Reads() {
		got = append(got, r.Name()+"@"+at(src, r.Offset))
	}
	// The position is the name's, after ONLY.
	if want := "Raw.Orders Events@1:15 dim.Customers@1:50"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

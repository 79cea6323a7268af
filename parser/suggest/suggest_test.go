package suggest

import (
	"fmt"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	keys := []string{"rollback", "rerun", "range", "publish"}
	cases := []struct {
		in, want string
	}{
		{"rollbak", "rollback"},  // one letter missing
		{"RERUN", "rerun"},       // case does not count
		{"pubilsh", "publish"},   // two letters swapped: distance 2
		{"rng", "range"},         // short words allow one edit more than a third of their length
		{"validation", ""},       // nothing close
		{"x", ""},                // one letter is no typo of anything here
		{"", ""},                 // nothing to match
		{"rollback", "rollback"}, // exact
	}
	for _, c := range cases {
		if got := Closest(c.in, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Closest("rollbak", nil); got != "" {
		t.Errorf("no candidates: got %q", got)
	}
}

// TestClosestAgreesWithFullDistance checks that dropping candidates early
// changes no answer: a plain Levenshtein over every candidate, keeping the
// first closest within the limit, picks the same name.
func TestClosestAgreesWithFullDistance(t *testing.T) {
	full := func(a, b string) int {
		prev := make([]int, len(b)+1)
		for j := range prev {
			prev[j] = j
		}
		for i := 1; i <= len(a); i++ {
			cur := make([]int, len(b)+1)
			cur[0] = i
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			}
			prev = cur
		}
		return prev[len(b)]
	}
	names := []string{"model_000100", "model_000101", "Model_001100", "marts.model_000100", "analytics.model_000100",
		"fct_orders", "fct_order", "dim_customers", "dim_customer_history", "stg_orders", "ORDERS", "orders_v2", "o"}
	for _, s := range append(names, "modle_000100", "analytics.model_00010", "fct_ordres", "dim_custmer", "xyz", "orders") {
		want, wantDist := "", min(len(s)/3+1, 3)+1
		for _, c := range names {
			if d := full(strings.ToLower(s), strings.ToLower(c)); d < wantDist {
				want, wantDist = c, d
			}
		}
		if got := Closest(s, names); got != want {
			t.Errorf("Closest(%q) = %q, full distance picks %q", s, got, want)
		}
	}
}

func BenchmarkClosestLargeGraph(b *testing.B) {
	names := make([]string, 100000)
	for i := range names {
		names[i] = fmt.Sprintf("analytics.mart_%06d", i)
	}
	for b.Loop() {
		Closest("analytics.model_000100", names)
	}
}

package sets_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/ruletest"
	"github.com/bflint/bflint/rules/sets"
)

// writeRun writes one plan per entry of plans (file name to YAML) and the
// build SQL per entry of builds into a fresh folder, lints it with the
// plan-set rules only, and returns the findings of code by file.
func writeRun(t *testing.T, code string, plans, builds map[string]string) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range plans {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range builds {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := ruletest.Lint(t, dir, rules.NewRegistry(sets.Rules...), nil)
	got := map[string][]string{}
	for _, f := range res.Findings {
		if f.Rule.Code == code {
			got[f.File.Name] = append(got[f.File.Name], f.Message)
		}
	}
	return got
}

// The fixtures cannot hold runs of hundreds of plans; these check that
// ordering through long chains of after is followed to the end, and that
// a long cycle is one finding.
const size = 300

func planName(i int) string { return fmt.Sprintf("p%03d.backfill.yaml", i) }

// TestLongChainIsOrdered: each plan's build reads the first plan's target
// and the previous plan's, and waits only for the previous plan, so every
// pair is ordered, most of them through hundreds of plans in between.
func TestLongChainIsOrdered(t *testing.T) {
	plans, builds := map[string]string{}, map[string]string{}
	for i := range size {
		text := fmt.Sprintf("bflint: 1\nid: bf_%03d\ntarget: analytics.t%03d\n", i, i)
		if i > 0 {
			text += fmt.Sprintf("after: [bf_%03d]\nstaging:\n  build: b%03d.sql\n", i-1, i)
			builds[fmt.Sprintf("b%03d.sql", i)] = fmt.Sprintf("CREATE TABLE backfill_staging.t%03d AS SELECT * FROM analytics.t000 JOIN analytics.t%03d USING (id);\n", i, i-1)
		}
		plans[planName(i)] = text
	}
	if got := writeRun(t, "BF804", plans, builds); len(got) > 0 {
		t.Errorf("an ordered chain got findings: %v", got)
	}

	// Dropping one link in the middle leaves every later plan unordered
	// against every plan before the gap whose target it reads: here the
	// first plan's, read by all.
	gap := size / 2
	plans[planName(gap)] = strings.Replace(plans[planName(gap)], fmt.Sprintf("after: [bf_%03d]\n", gap-1), "", 1)
	got := writeRun(t, "BF804", plans, builds)
	for i := 1; i < size; i++ {
		n := len(got[planName(i)])
		switch {
		case i < gap && n != 0:
			t.Errorf("%s: %d findings before the gap: %v", planName(i), n, got[planName(i)])
		case i == gap && n != 2:
			// bf_000 and the plan just before the gap.
			t.Errorf("%s: %d findings at the gap, want 2: %v", planName(i), n, got[planName(i)])
		case i > gap && n != 1:
			t.Errorf("%s: %d findings after the gap, want 1 (bf_000): %v", planName(i), n, got[planName(i)])
		}
	}
}

// TestLongCycleReportedOnce: every plan waits for the next and the last
// for the first; one finding, at the plan with the smallest id, naming
// the whole chain.
func TestLongCycleReportedOnce(t *testing.T) {
	plans := map[string]string{}
	for i := range size {
		plans[planName(i)] = fmt.Sprintf("bflint: 1\nid: bf_%03d\ntarget: analytics.t%03d\nafter: [bf_%03d]\n", i, i, (i+1)%size)
	}
	got := writeRun(t, "BF804", plans, nil)
	if len(got) != 1 || len(got[planName(0)]) != 1 {
		t.Fatalf("want one finding on %s, got %v", planName(0), got)
	}
	msg := got[planName(0)][0]
	if !strings.HasPrefix(msg, `after forms a cycle: plan "bf_000" waits for "bf_001"`) || strings.Count(msg, "waits for") != size {
		t.Errorf("the message does not name the %d waits of the cycle: %s", size, msg)
	}
}

// TestManyOverlappingPlans: plans over one target and one range, each
// waiting for the one before, are all ordered; without after, they are
// one group, reported once, by the plan with the largest id, which names
// the first few others and counts the rest.
func TestManyOverlappingPlans(t *testing.T) {
	const n = 40
	ordered, unordered := map[string]string{}, map[string]string{}
	for i := range n {
		base := fmt.Sprintf("bflint: 1\nid: bf_%03d\ntarget: analytics.fct_orders\nrange: {start: 2026-01-14, end: 2026-06-30}\n", i)
		unordered[planName(i)] = base
		if i > 0 {
			base += fmt.Sprintf("after: [bf_%03d]\n", i-1)
		}
		ordered[planName(i)] = base
	}
	if got := writeRun(t, "BF807", ordered, nil); len(got) > 0 {
		t.Errorf("a chain of after got findings: %v", got)
	}
	got := writeRun(t, "BF807", unordered, nil)
	last := planName(n - 1)
	if len(got) != 1 || len(got[last]) != 1 {
		t.Fatalf("want one finding, on %s, got %v", last, got)
	}
	if msg := got[last][0]; !strings.Contains(msg, fmt.Sprintf("and %d other plans", n-1)) || !strings.Contains(msg, fmt.Sprintf("and %d more", n-1-5)) {
		t.Errorf("the finding does not name 5 plans and count the rest: %s", msg)
	}
}

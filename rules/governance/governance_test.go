package governance

import (
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

// TestTrialSeverity checks what fixtures cannot: a missing trial is the
// rule's default warning, a trial outside the range is escalated to an error.
func TestTrialSeverity(t *testing.T) {
	const header = "bflint: 1\nid: bf20261130_a\ntarget: analytics.fct_orders\nrange:\n  start: 2026-01-14\n  end: 2026-06-30\n"
	for _, tc := range []struct {
		name, trial string
		want        rules.Severity
		message     string
	}{
		{"missing", "", rules.SeverityWarning, "has no trial"},
		{"no partition", "trial:\n", rules.SeverityWarning, "trial lacks partition"},
		{"outside", "trial:\n  partition: 2026-07-01\n", rules.SeverityError, "outside the range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f := source.Add(fset, "trial.backfill.yaml", []byte(header+tc.trial))
			u := &rules.Unit{File: f, Plan: plan.Parse(f)}
			res := rules.Run(fset, []*rules.Unit{u}, &rules.Settings{
				Registry: rules.NewRegistry(TrialMissing),
				Config:   &config.Config{},
				Now:      time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
			})
			if len(res.Findings) != 1 {
				t.Fatalf("got %d findings, want 1: %+v", len(res.Findings), res.Findings)
			}
			got := res.Findings[0]
			if got.Severity != tc.want || !strings.Contains(got.Message, tc.message) {
				t.Errorf("got %s %q, want %s containing %q", got.Severity, got.Message, tc.want, tc.message)
			}
		})
	}
}

package validation

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

// TestNoControlPeriodSeverity checks what the fixtures cannot: a missing
// control period is a warning, a control period inside the range an error.
func TestNoControlPeriodSeverity(t *testing.T) {
	const head = `bflint: 1
id: bf20260826_a
target: analytics.fct_orders
range:
  start: 2026-01-14
  end: 2026-06-30
validation:
  checks:
    - name: reconciliation
      pass: "max_abs_delta_pct <= 0.5"
`
	for _, tc := range []struct {
		name, control, msg string
		want               rules.Severity
	}{
		{"missing", "", "compares a control period", rules.SeverityWarning},
		{"overlapping", "      control: {start: 2026-06-30, end: 2026-07-31}\n", "overlaps the range", rules.SeverityError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f := source.Add(fset, "p.backfill.yaml", []byte(head+tc.control))
			p := plan.Parse(f)
			if len(p.Problems) > 0 {
				t.Fatalf("fixture plan does not parse: %v", p.Problems)
			}
			res := rules.Run(fset, []*rules.Unit{{File: f, Plan: p}}, &rules.Settings{
				Registry: rules.NewRegistry(NoControlPeriod),
				Config:   &config.Config{},
				Now:      time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
			})
			if len(res.Findings) != 1 {
				t.Fatalf("got %d findings, want 1: %+v", len(res.Findings), res.Findings)
			}
			got := res.Findings[0]
			if got.Severity != tc.want || !strings.Contains(got.Message, tc.msg) {
				t.Errorf("got %s %q, want %s containing %q", got.Severity, got.Message, tc.want, tc.msg)
			}
		})
	}
}

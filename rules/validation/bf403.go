package validation

import (
	"github.com/bflint/bflint/rules"
)

// NoControlPeriod reports validation without a control period, and a control
// period that the backfill itself rewrites.
var NoControlPeriod = &rules.Rule{
	Code:     "BF403",
	Name:     "no-control-period",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "No validation check compares a control period, or the control period overlaps the range (error)",
		Why: "The most useful check of a correction is a period the bug never touched: recomputed with the new logic, it must come out unchanged. " +
			"It catches a fix that changes more than it should, a wrong join, a wrong dimension version, which checks inside the range cannot tell from the intended change. " +
			"A control period inside the range is no control at all: the backfill rewrites it, so any difference there is expected and proves nothing.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
validation:
  checks:
    - name: control_period
      sql: sql/validate_control.sql
      control: {start: 2026-01-01, end: 2026-02-28}   # half of it is in the range
      pass: "changed_rows = 0"
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
validation:
  checks:
    - name: control_period
      sql: sql/validate_control.sql
      control: {start: 2025-10-01, end: 2025-12-31}   # before the bug
      pass: "changed_rows = 0"
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		v := p.Validation
		// Without checks BF401 already reports the gap; a second finding on
		// the same key would say less.
		if v == nil || len(v.Checks) == 0 {
			return nil
		}
		hasControl := false
		rangeStart, rangeEnd, rangeOK := p.Bounds()
		g := p.Grain()
		for i, c := range v.Checks {
			if c.Control == nil || !c.Control.Set {
				continue
			}
			hasControl = true
			if !rangeOK {
				continue
			}
			start, end, ok := c.Control.Bounds(g)
			if ok && !start.After(rangeEnd) && !end.Before(rangeStart) {
				pass.ReportSeverityf(rules.SeverityError, c.Control.Key, "control period %s..%s of %s overlaps the range %s..%s: the backfill rewrites those partitions of %q, so the control cannot show that nothing outside the range moved\nhelp: choose a period the bug did not touch, outside the range",
					c.Control.Start.Raw, c.Control.End.Raw, checkName(i, c), p.Range.Start.Raw, p.Range.End.Raw, p.Target.V)
			}
		}
		if !hasControl {
			pass.Reportf(v.Key, "no validation check of %q compares a control period: nothing shows that partitions the bug did not touch come out unchanged under the new logic\nhelp: add a check with control: {start, end} outside the range and pass \"changed_rows = 0\"", p.Target.V)
		}
		return nil
	},
}

package daterange

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// Invalid reports ranges and periods in the wrong order, and dates that
// name no partition at the plan's grain.
var Invalid = &rules.Rule{
	Code:     "BF105",
	Name:     "range-invalid",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The range starts after it ends, or a range, trial, control or test date is not a partition at the plan's grain",
		Why: "Every date in a plan stands for a partition: the ends of the range, the trial partition, the partition the re-run was tested on, " +
			"the control period and the boundary. A date that is real on the calendar but not a partition at the grain " +
			"(a Wednesday at week grain, the 14th at month grain, a day without an hour at hour grain) leaves it to each reader, " +
			"and each tool, to round it their own way, so the run, the SQL and the checks disagree about where the range begins. " +
			"A range or control period that starts after it ends holds no partition at all. bflint skips the checks that compare against such a range.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-06-30
  end: 2026-01-14        # before the start
  grain: week            # and neither is a Monday
trial:
  partition: 2026-03-04  # a Wednesday
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-12      # Monday of the week holding 2026-01-14
  end: 2026-06-29
  grain: week
trial:
  partition: 2026-03-02
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		g := p.Grain()
		fit := func(d plan.Date, name, consequence string) { reportFit(pass, g, d, name, consequence) }
		if r := p.Range; r != nil {
			const unusable = "the range is unusable and the checks that compare against it are skipped"
			fit(r.Start, "range.start", unusable)
			fit(r.End, "range.end", unusable)
			if r.Start.Valid() && r.End.Valid() && g.Truncate(r.Start.T).After(g.Truncate(r.End.T)) {
				pass.Reportf(r.Start.Key, "range.start %s is after range.end %s: the range of %q holds no partition and the checks that compare against it are skipped\nhelp: swap them or correct the one that is wrong", r.Start.Raw, r.End.Raw, p.Target.V)
			}
			if b := r.Boundary; b != nil {
				const unmatched = "it cannot be compared with the partitions of the range"
				fit(b.Candidate, "range.boundary.candidate", unmatched)
				fit(b.Confirmed, "range.boundary.confirmed", unmatched)
			}
		}
		if t := p.Trial; t != nil {
			fit(t.Partition, "trial.partition", "the trial would run a partition the target does not have")
		}
		if r := p.Rerun; r != nil && r.Tested != nil {
			fit(r.Tested.Partition, "rerun.tested.partition", "the run-twice test names a partition the target does not have")
		}
		if v := p.Validation; v != nil {
			for i, c := range v.Checks {
				if c.Control != nil {
					checkControl(pass, g, checkName(i, c), c.Control)
				}
			}
		}
		return nil
	},
}

// reportFit reports a date that is real but names no partition at grain g.
func reportFit(pass *rules.Pass, g plan.Grain, d plan.Date, name, consequence string) {
	if !d.Valid() {
		return
	}
	if err := g.Fit(d); err != nil {
		pass.Reportf(d.Key, "%s names no %s partition, so %s: %v", name, g, consequence, err)
	}
}

func checkControl(pass *rules.Pass, g plan.Grain, check string, c *plan.Period) {
	var missing []string
	if !written(c.Start) {
		missing = append(missing, "start")
	}
	if !written(c.End) {
		missing = append(missing, "end")
	}
	if len(missing) > 0 {
		pass.Reportf(c.Key, "control period of %s lacks %s: the period the bug did not touch is open-ended, so the check cannot say which partitions must stay unchanged\nhelp: give it both start and end", check, strings.Join(missing, " and "))
	}
	const unmatched = "the partitions that must stay unchanged are ambiguous"
	reportFit(pass, g, c.Start, "control.start of "+check, unmatched)
	reportFit(pass, g, c.End, "control.end of "+check, unmatched)
	if c.Start.Valid() && c.End.Valid() && g.Truncate(c.Start.T).After(g.Truncate(c.End.T)) {
		pass.Reportf(c.Start.Key, "control period of %s starts on %s, after its end %s: it holds no partition, so the check compares nothing\nhelp: swap them or correct the one that is wrong", check, c.Start.Raw, c.End.Raw)
	}
}

// checkName names a validation check in messages, by its name when it has one.
func checkName(i int, c plan.Check) string {
	if c.Name.Set && c.Name.V != "" {
		return fmt.Sprintf("check %q", c.Name.V)
	}
	return fmt.Sprintf("validation.checks[%d]", i)
}

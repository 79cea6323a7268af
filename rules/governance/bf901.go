package governance

import "github.com/bflint/bflint/rules"

// TrialMissing reports a plan with no trial partition, or one outside the
// range it is meant to rehearse.
var TrialMissing = &rules.Rule{
	Code:     "BF901",
	Name:     "trial-missing",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan names no trial partition (an error when the trial partition lies outside the range)",
		Why: "Running one partition end to end first (build, validate, publish, roll back) and then looking at it is the cheapest insurance a backfill has: " +
			"it costs one partition of compute and catches the wrong join, the missing grant and the broken rollback before they reach the whole range. " +
			"A trial nobody planned tends to be skipped once the run is under way. A trial partition outside the range is worse than none: " +
			"it rehearses on data the backfill will not touch, or publishes a correction to a partition that was never meant to change.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
trial:
  partition: 2026-07-01   # after the range
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
trial:
  partition: 2026-03-01   # run, published, rolled back and inspected first
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		t := p.Trial
		if t == nil {
			pass.ReportAbsentf("plan %q has no trial: the whole range of %q runs before any single partition has been built, published and inspected\nhelp: add trial.partition with one partition of the range to run end to end first", p.ID.V, p.Target.V)
			return nil
		}
		d := t.Partition
		// A value BF001 rejected is still a trial partition the author chose.
		if !d.Set && d.Raw == "" {
			pass.Reportf(t.Key, "trial lacks partition: no partition of %q is run end to end and inspected before the rest of the range\nhelp: set trial.partition", p.Target.V)
			return nil
		}
		g := p.Grain()
		start, end, ok := p.Bounds()
		// A trial date that does not fit the grain is BF105's to report;
		// comparing it would judge a partition that does not exist.
		if !ok || !d.Valid() || g.Fit(d) != nil {
			return nil
		}
		if d.T.Before(start) || d.T.After(end) {
			pass.ReportSeverityf(rules.SeverityError, d.Key, "trial.partition %s lies outside the range %s to %s: the trial rehearses a partition of %q the backfill does not change, and publishing it alters data that was meant to stay\nhelp: pick a partition inside the range",
				d.Raw, g.Format(start), g.Format(end), p.Target.V)
		}
		return nil
	},
}

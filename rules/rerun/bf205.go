package rerun

import "github.com/bflint/bflint/rules"

// Untested reports a re-run that was assumed safe rather than tried.
var Untested = &rules.Rule{
	Code:     "BF205",
	Name:     "rerun-untested",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The re-run was not tested, or the test did not give identical results (rerun.tested.identical is not true)",
		Why: "\"It has been re-run before\" usually means it was re-run on an empty range, where an append and a merge look the same. " +
			"Idempotency is the assumption that fails most often and most expensively, and the only evidence for it is doing it: " +
			"run one already-populated partition twice against a copy of the target and compare the results. " +
			"If they differ, the write has to be fixed before the range runs, not after.",
		Bad: rules.Example{Lang: "yaml", Text: `rerun:
  write: merge
  key: [order_id]
  uniqueness_check: sql/assert_unique.sql
  # assumed idempotent, never run twice
`},
		Good: rules.Example{Lang: "yaml", Text: `rerun:
  write: merge
  key: [order_id]
  uniqueness_check: sql/assert_unique.sql
  tested:
    partition: 2026-03-01   # run twice on a populated copy
    identical: true
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		r := p.Rerun
		switch {
		case r == nil:
			pass.ReportAbsentf("plan %q has no rerun section: nothing shows that re-running a partition of %q converges instead of adding rows again\nhelp: state rerun.write and record a run-twice test in rerun.tested", p.ID.V, p.Target.V)
		case r.Tested == nil:
			pass.Reportf(r.Field.Key, "rerun has no tested section: re-running a partition of %q is assumed safe, not shown\nhelp: run one populated partition twice on a copy and record it in rerun.tested with identical: true", p.Target.V)
		case !r.Tested.Identical.Set:
			pass.Reportf(r.Tested.Key, "rerun.tested does not record whether the second run of %q was identical to the first\nhelp: set identical once the results have been compared", p.Target.V)
		case !r.Tested.Identical.V:
			pass.Reportf(r.Tested.Identical.Key, "rerun.tested.identical is false: running a partition of %q twice changed it, so every retry of the backfill will too\nhelp: fix the write before running the range", p.Target.V)
		}
		return nil
	},
}

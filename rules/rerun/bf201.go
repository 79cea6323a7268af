package rerun

import "github.com/bflint/bflint/rules"

// AppendWrite reports a write that adds rows on every run.
var AppendWrite = &rules.Rule{
	Code:     "BF201",
	Name:     "append-write",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The backfill appends: re-running a partition duplicates its rows",
		Why: "Re-run safety is a property of the write, not of the transformation. A pure transformation followed by an append " +
			"adds the partition again every time it runs, and a backfill always runs some partitions twice: a retry after a timeout, " +
			"a restart after a failure halfway, a second pass after a fix. Against an empty range that goes unnoticed; " +
			"against the populated target it doubles revenue for exactly the days that were meant to be corrected. " +
			"Write with a merge on a unique key or by replacing whole partitions, so a second run converges on the first.",
		Bad: rules.Example{Lang: "yaml", Text: `rerun:
  write: append          # a retried day is counted twice
`},
		Good: rules.Example{Lang: "yaml", Text: `rerun:
  write: replace_partition
  tested:
    partition: 2026-03-01
    identical: true
`},
	},
	Run: func(pass *rules.Pass) error {
		r := pass.Plan.Rerun
		if r != nil && r.Write.Set && r.Write.V == "append" {
			pass.Reportf(r.Write.Key, "rerun.write is append: re-running any partition of %q adds its rows again, doubling them; use merge on a unique key or replace_partition", pass.Plan.Target.V)
		}
		return nil
	},
}

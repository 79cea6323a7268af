package rollback

import "github.com/bflint/bflint/rules"

// Missing reports a plan with no rollback section.
var Missing = &rules.Rule{
	Code:     "BF601",
	Name:     "rollback-missing",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan has no rollback section",
		Why: "A publish that cannot be undone turns the first wrong number found after it into a second backfill, run by hand and under pressure. " +
			"The rollback belongs in the plan next to the publish, because its shape depends on the publish mechanism and the storage layer: " +
			"a merge is undone from a retained copy of the affected partitions, a swap by swapping back. " +
			"If the table format offers no undo, the plan has to take a copy of the range before it publishes.",
		Bad: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publish.sql
# nothing says how to undo the merge
`},
		Good: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publish.sql
rollback:
  mechanism: restore_copy
  location: backfill_rollback.fct_orders__pre_bf20260826_a
  capture: sql/capture.sql
  sql: sql/rollback.sql
  retained_until: 2026-10-31
  restorable_by: data-platform-oncall
  restore_time: 30m
  tested: true
`},
	},
	Run: func(pass *rules.Pass) error {
		if pass.Plan.Rollback == nil {
			pass.ReportAbsentf("plan %q has no rollback section: once published, the range of %q cannot be restored to what it held before\nhelp: add rollback with its mechanism, location, retention and owner", pass.Plan.ID.V, pass.Plan.Target.V)
		}
		return nil
	},
}

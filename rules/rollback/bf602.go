package rollback

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// Incomplete reports a rollback that leaves out what is needed to run it.
var Incomplete = &rules.Rule{
	Code:     "BF602",
	Name:     "rollback-incomplete",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The rollback lacks its location, retention, owner or restore time, or a copy rollback lacks its capture step",
		Why: "\"We can roll back\" is not a rollback. Restoring needs to know which copy to restore from, that it still exists, " +
			"who is allowed to run the restore and how long consumers will wait while it runs. " +
			"A restore from a copy also needs the step that takes the copy before the publish: without it the copy is never made, " +
			"and the gap is found at the moment the rollback is needed.",
		Bad: rules.Example{Lang: "yaml", Text: `rollback:
  mechanism: restore_copy
  location: backfill_rollback.fct_orders__pre_bf20260826_a
  # no capture, retention, owner or restore time
`},
		Good: rules.Example{Lang: "yaml", Text: `rollback:
  mechanism: restore_copy
  location: backfill_rollback.fct_orders__pre_bf20260826_a
  capture: sql/capture.sql
  retained_until: 2026-10-31
  restorable_by: data-platform-oncall
  restore_time: 30m
`},
	},
	Run: func(pass *rules.Pass) error {
		rb := pass.Plan.Rollback
		if rb == nil {
			return nil
		}
		// The consequence and the advice name only what is missing, so a
		// rollback completed in part is not told again what it has.
		var missing, unknown []string
		for _, f := range []struct {
			key, consequence string
			set              bool
		}{
			{"location", "which copy restores the range", rb.Location.Set},
			{"retained_until", "until when the copy exists", rb.RetainedUntil.Set},
			{"restorable_by", "who may run the restore", rb.RestorableBy.Set},
			{"restore_time", "how long the restore takes", rb.RestoreTime.Set},
		} {
			if !f.set {
				missing, unknown = append(missing, f.key), append(unknown, f.consequence)
			}
		}
		if len(missing) > 0 {
			pass.Reportf(rb.Key, "rollback lacks %s: for %q, nobody can tell %s"+rules.HelpMarker+"add rollback.%s", rules.Listing(missing), pass.Plan.Target.V, rules.Listing(unknown), strings.Join(missing, ", rollback."))
		}
		if rb.Mechanism.Set && rb.Mechanism.V == "restore_copy" && !rb.Capture.Set {
			pass.Reportf(rb.Mechanism.Key, "rollback.mechanism restore_copy has no capture: nothing copies the affected range of %q before publish, so there is nothing to restore\nhelp: add rollback.capture with the SQL that takes the copy", pass.Plan.Target.V)
		}
		return nil
	},
}

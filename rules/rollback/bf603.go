package rollback

import "github.com/bflint/bflint/rules"

// Untested reports a rollback never exercised on the trial partition.
var Untested = &rules.Rule{
	Code:     "BF603",
	Name:     "rollback-untested",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The rollback has not been exercised (rollback.tested is not true)",
		Why: "A restore path that has never run is a hypothesis. Grants, retention settings and the restore statement itself " +
			"fail in ways nobody sees until the restore is urgent. The trial partition is the cheap place to try it: " +
			"publish one partition, roll it back, compare, and only then mark the rollback tested.",
		Bad: rules.Example{Lang: "yaml", Text: `rollback:
  mechanism: time_travel
  location: analytics.fct_orders AT (TIMESTAMP => '2026-08-26 09:00')
  tested: false
`},
		Good: rules.Example{Lang: "yaml", Text: `rollback:
  mechanism: time_travel
  location: analytics.fct_orders AT (TIMESTAMP => '2026-08-26 09:00')
  tested: true   # restored the 2026-03-01 trial partition and compared it
`},
	},
	Run: func(pass *rules.Pass) error {
		rb := pass.Plan.Rollback
		switch {
		case rb == nil:
		case !rb.Tested.Set:
			pass.Reportf(rb.Key, "rollback of %q has not been exercised: nothing shows that the restore works\nhelp: restore the trial partition once and set rollback.tested: true", pass.Plan.Target.V)
		case !rb.Tested.V:
			pass.Reportf(rb.Tested.Key, "rollback.tested is false: the restore of %q is unproven until it has run on the trial partition\nhelp: restore the trial partition once, then set rollback.tested: true", pass.Plan.Target.V)
		}
		return nil
	},
}

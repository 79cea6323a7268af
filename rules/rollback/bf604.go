package rollback

import (
	"time"

	"github.com/bflint/bflint/rules"
)

// ExpiresEarly reports a rollback copy that is deleted before a reporting
// cycle has passed.
var ExpiresEarly = &rules.Rule{
	Code:     "BF604",
	Name:     "rollback-expires-early",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The rollback copy expires before one reporting cycle has passed",
		Why: "Wrong numbers are usually noticed when someone reads them: at the next month-end close, not the morning after the publish. " +
			"A rollback copy, or a table format's snapshot, that expires before that moment disappears exactly when it would be needed. " +
			"bflint requires retained_until to be at least one reporting cycle (35 days unless configured) after today.",
		Bad: rules.Example{Lang: "yaml", Text: `# linted on 2026-08-26
rollback:
  mechanism: time_travel
  retained_until: 2026-09-02   # one week of snapshot retention
`},
		Good: rules.Example{Lang: "yaml", Text: `# linted on 2026-08-26
rollback:
  mechanism: restore_copy
  retained_until: 2026-10-31   # past the next month-end close
`},
	},
	Run: func(pass *rules.Pass) error {
		rb := pass.Plan.Rollback
		if rb == nil || !rb.RetainedUntil.Valid() {
			return nil
		}
		loc := pass.Plan.Location()
		d := rb.RetainedUntil.T
		// Kept through the whole of that day in the plan's timezone.
		endOfRetention := time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc)
		cycle := pass.Config.Cycle()
		needed := pass.Now.Add(cycle)
		if endOfRetention.Before(needed) {
			pass.Reportf(rb.RetainedUntil.Key, "rollback copy %q is kept only until %s, before one reporting cycle (%d days) from now ends on %s: a wrong number found at the next close could not be restored\nhelp: keep it until at least %s",
				rb.Location.V, d.Format("2006-01-02"), int(cycle.Hours()/24), needed.In(loc).Format("2006-01-02"), needed.In(loc).Format("2006-01-02"))
		}
		return nil
	},
}

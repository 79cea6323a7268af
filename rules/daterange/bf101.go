package daterange

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// Missing reports a plan that does not say which partitions it changes.
var Missing = &rules.Rule{
	Code:     "BF101",
	Name:     "range-missing",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan has no range, or the range lacks its start or end",
		Why: "When the numbers move after a backfill, the first question is whether they were supposed to. " +
			"A range agreed in a thread (\"from around March\") cannot answer it, so the team ends up rebuilding the intent from run logs. " +
			"The range is also what every other check compares against: the SQL literals, the run command, the trial partition, " +
			"the control period and the partitions the scheduled pipeline still owns. Without both ends none of that can be checked.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  # no end: "until the fix was deployed"
  grain: day
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14   # inclusive
  end: 2026-06-30     # inclusive
  grain: day
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		r := p.Range
		if r == nil {
			pass.ReportAbsentf("plan %q has no range: nothing records which partitions of %q the backfill changes, so no run, SQL or check can be held to it\nhelp: add range.start and range.end; both ends are inclusive partition values", p.ID.V, p.Target.V)
			return nil
		}
		var missing []string
		if !written(r.Start) {
			missing = append(missing, "start")
		}
		if !written(r.End) {
			missing = append(missing, "end")
		}
		if len(missing) > 0 {
			pass.Reportf(r.Key, "range lacks %s: the partitions of %q the backfill changes are open-ended, so no run, SQL or check can be held to them\nhelp: add %s; both ends are inclusive partition values", strings.Join(missing, " and "), p.Target.V, "range."+strings.Join(missing, " and range."))
		}
		return nil
	},
}

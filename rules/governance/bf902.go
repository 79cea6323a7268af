package governance

import (
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// CommunicationMissing reports a plan that does not say who is told what.
var CommunicationMissing = &rules.Rule{
	Code:     "BF902",
	Name:     "communication-missing",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan does not name the consumers or the change they should expect",
		Why: "A correction is experienced as competence or as chaos depending on whether the people reading the data knew it was coming. " +
			"Finance needs to hear which range moves, in which direction and by roughly how much, before the numbers change under them; " +
			"otherwise the first they learn of the backfill is a report that no longer matches last month's. " +
			"The plan already holds everything that message needs, so writing it down costs one line.",
		Bad: rules.Example{Lang: "yaml", Text: `communication:
  consumers: [finance]
  # what will they see change?
`},
		Good: rules.Example{Lang: "yaml", Text: `communication:
  consumers: [finance]
  expected_change: Net revenue from 2026-01-14 to 2026-06-30 falls by about the value of refunds; nothing outside the range moves.
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		c := p.Communication
		if c == nil {
			pass.ReportAbsentf("plan %q has no communication section: readers of %q see their numbers move without warning or explanation\nhelp: add communication.consumers and communication.expected_change", p.ID.V, p.Target.V)
			return nil
		}
		var missing []string
		if !hasConsumer(c.Consumers.Items) {
			missing = append(missing, "consumers")
		}
		if !given(c.ExpectedChange) {
			missing = append(missing, "expected_change")
		}
		if len(missing) > 0 {
			pass.Reportf(c.Key, "communication lacks %s: the readers of %q are not told who is affected or what will move, so the correction arrives as an unexplained change\nhelp: add %s", strings.Join(missing, " and "), p.Target.V, "communication."+strings.Join(missing, " and communication."))
		}
		return nil
	},
}

func hasConsumer(items []plan.String) bool {
	for _, it := range items {
		if given(it) {
			return true
		}
	}
	return false
}

package sets

import (
	"fmt"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// OverlappingPlans reports two plans of one run that correct the same
// partitions of one target with nothing ordering them.
var OverlappingPlans = &rules.Rule{
	Code:     "BF807",
	Name:     "overlapping-plans",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "Two plans correct overlapping ranges of the same target and after does not order them",
		Why: "Two plans over the same partitions of one target, run at the same time, each stage, validate and publish their own recompute: " +
			"whichever publishes last decides what consumers see, each rollback copy may already hold the other's output, " +
			"and neither validation describes the published result. Ranges are compared as instants, each in its plan's grain and timezone, " +
			"and targets by the manifest's node when it knows both, else by relation name. " +
			"Ordering the plans with after (directly or through other plans) makes the second a deliberate correction of the first; " +
			"splitting the range makes them independent. The finding is reported once per pair, at the range of the plan with the larger id.",
		Bad: rules.Example{Lang: "yaml", Text: `# refunds.backfill.yaml
id: bf20260826_a
target: analytics.fct_orders
range: {start: 2026-01-14, end: 2026-06-30}
---
# currency.backfill.yaml
id: bf20260902_a
target: analytics.fct_orders
range: {start: 2026-05-01, end: 2026-08-31}   # May and June are corrected twice, in no set order
`},
		Good: rules.Example{Lang: "yaml", Text: `# refunds.backfill.yaml
id: bf20260826_a
target: analytics.fct_orders
range: {start: 2026-01-14, end: 2026-06-30}
---
# currency.backfill.yaml
id: bf20260902_a
target: analytics.fct_orders
after: [bf20260826_a]
range: {start: 2026-05-01, end: 2026-08-31}
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		start, end, ok := span(p)
		if !ok || !hasID(p) {
			return nil
		}
		self, ok := targetOf(pass, p)
		if !ok {
			return nil
		}
		o := orderOf(pass)
		for _, q := range pass.Plans {
			// The pair is reported once, by the plan that comes later.
			if q == p || !hasID(q) || !leads(q, p) {
				continue
			}
			qStart, qEnd, ok := span(q)
			if !ok || !start.Before(qEnd) || !qStart.Before(end) {
				continue
			}
			other, ok := targetOf(pass, q)
			if !ok || !self.same(other) || o.ordered(q) {
				continue
			}
			pass.Reportf(pass.SectionOr(p.Range.Field), "plan %q corrects %q over %s, overlapping plan %s, which corrects %q over %s, and after orders neither before the other: both may publish the same partitions and whichever lands last decides what consumers see\nhelp: order them with after, or split the range",
				p.ID.V, p.Target.V, rangeText(p), name(q), q.Target.V, rangeText(q))
		}
		return nil
	},
}

// span returns the plan's range as instants, start inclusive and end
// exclusive, reading its partition values in its own timezone; false when
// the range is not usable.
func span(p *plan.Plan) (start, end time.Time, ok bool) {
	first, last, ok := p.Bounds()
	if !ok {
		return time.Time{}, time.Time{}, false
	}
	loc := p.Location()
	at := func(t time.Time) time.Time {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, loc)
	}
	return at(first), p.Grain().Add(at(last), 1), true
}

// rangeText is the range as the plan writes it, with its zone when that is
// not UTC, since plans in different zones cover different instants.
func rangeText(p *plan.Plan) string {
	s := fmt.Sprintf("%s..%s", p.Range.Start.Raw, p.Range.End.Raw)
	if loc := p.Location(); loc.String() != "UTC" {
		s += " " + loc.String()
	}
	return s
}

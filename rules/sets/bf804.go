package sets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// PlanOrder reports plans of one run whose after does not follow the data
// between their targets, and cycles in after.
var PlanOrder = &rules.Rule{
	Code:     "BF804",
	Name:     "plan-order",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "Plans of one correction are not ordered the way the data flows, or their after lists form a cycle",
		Why: "A correction that spans several datasets is several plans, and a plan whose target is computed from another plan's target " +
			"has to run after it: run first, it rebuilds from the uncorrected data, validates against it, publishes it, and is declared done " +
			"while its numbers are still wrong. bflint finds the dependency in the dbt manifest (one target derived from the other) " +
			"and in the plan's build SQL (it reads the other plan's target), and expects the downstream plan to list the upstream one in after, " +
			"directly or through the after of a plan in between. A cycle in after is reported once, at the plan with the smallest id on it: " +
			"plans that wait for each other never start. An after entry that names no plan of the run is not reported, " +
			"since that plan may be linted, or may have run, elsewhere.",
		Bad: rules.Example{Lang: "yaml", Text: `# fct_orders.backfill.yaml
id: bf20261102_a
target: model.shop.fct_orders
---
# revenue_daily.backfill.yaml: revenue_daily is built from fct_orders
id: bf20261102_b
target: model.shop.revenue_daily
# no after: it may run first and publish revenue from uncorrected orders
`},
		Good: rules.Example{Lang: "yaml", Text: `# fct_orders.backfill.yaml
id: bf20261102_a
target: model.shop.fct_orders
---
# revenue_daily.backfill.yaml
id: bf20261102_b
target: model.shop.revenue_daily
after: [bf20261102_a]
`},
	},
	Run: func(pass *rules.Pass) error {
		if !hasID(pass.Plan) {
			return nil
		}
		o := orderOf(pass)
		reportCycle(pass, o)
		set := setOf(pass)
		self, ok := set.targets[pass.Plan]
		if !ok {
			return nil
		}
		for _, q := range upstreamPlans(pass, set, self) {
			up := set.targets[q]
			if q == pass.Plan || self.same(up) {
				continue
			}
			why, ok := derivedFrom(pass, self, up)
			if !ok {
				continue
			}
			switch {
			case o.waitsFor(q) && o.waitedBy(q):
				// Both wait for the other: the cycle's finding covers them.
			case o.waitsFor(q):
				// Ordered the way the data flows.
			case o.waitedBy(q):
				pass.Reportf(anchor(pass), "%s, but after orders them the other way round: %q waits for %q, so %q runs on data that %q has not corrected yet and publishes the old numbers\nhelp: list %q in the after of %q instead of the reverse",
					why, q.ID.V, pass.Plan.ID.V, pass.Plan.ID.V, q.ID.V, q.ID.V, pass.Plan.ID.V)
			default:
				pass.Reportf(anchor(pass), "%s, but its after does not list %q: it may run first, rebuild from the uncorrected data and publish the old numbers\nhelp: add %q to after",
					why, q.ID.V, q.ID.V)
			}
		}
		return nil
	},
}

// upstreamPlans lists, sorted, the plans of the run whose target the
// unit's target may be derived from: those the manifest puts upstream of
// it, and those whose target its build reads. Looking them up, rather
// than trying every plan of the run, keeps a run of thousands of plans
// linear.
func upstreamPlans(pass *rules.Pass, set *planSet, self target) []*plan.Plan {
	seen := map[*plan.Plan]bool{}
	var out []*plan.Plan
	add := func(q *plan.Plan) {
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	if g := pass.Unit.Lineage(); g != nil && self.node != "" {
		for _, id := range g.Upstream(self.node) {
			for _, q := range set.byNode[id] {
				add(q)
			}
		}
	}
	for _, r := range buildReads(pass) {
		if len(r.Parts) == 0 {
			continue
		}
		for _, q := range set.byName[strings.ToLower(r.Parts[len(r.Parts)-1])] {
			add(q)
		}
	}
	slices.SortFunc(out, compare)
	return out
}

// derivedFrom says why the unit's target must be corrected after up's:
// the manifest derives it from up's target, or the unit's build reads
// up's target. When the manifest derives up's target from the unit's, the
// pair is up's plan's to report; a build of the unit that reads up's
// target then changes nothing, since no order could satisfy both ways.
func derivedFrom(pass *rules.Pass, self, up target) (string, bool) {
	subject := fmt.Sprintf("plan %q corrects %q", pass.Plan.ID.V, pass.Plan.Target.V)
	if g := pass.Unit.Lineage(); g != nil && self.node != "" && up.node != "" {
		if g.Path(self.node, up.node) != nil {
			return "", false
		}
		if path := g.Path(up.node, self.node); path != nil {
			return fmt.Sprintf("%s, which is derived from %q (%s), the target of plan %s",
				subject, up.plan.Target.V, strings.Join(path, " → "), name(up.plan)), true
		}
	}
	if r, ok := up.readBy(pass); ok {
		return fmt.Sprintf("%s with a build that reads %q, the target of plan %s", subject, r.Name(), name(up.plan)), true
	}
	return "", false
}

// reportCycle reports the cycle of after through the unit's plan, from the
// plan that leads it, naming one shortest chain of waits and any other
// plans caught in it.
func reportCycle(pass *rules.Pass, o *order) {
	members, chain := o.cycle()
	if chain == nil {
		return
	}
	var rest []string
	for _, m := range members {
		if !slices.Contains(chain, m) {
			rest = append(rest, name(m))
		}
	}
	id := pass.Plan.ID.V
	if len(chain) == 2 {
		also := ""
		if len(rest) > 0 {
			also = ", and waits in a cycle with " + strings.Join(rest, ", ")
		}
		pass.Reportf(anchor(pass), "plan %q lists itself in after%s: it waits for its own end and never starts\nhelp: remove %q from after", id, also, id)
		return
	}
	steps := make([]string, 0, len(chain)-1)
	for i, p := range chain[1 : len(chain)-1] {
		who := "which"
		if i == 0 {
			who = fmt.Sprintf("plan %q", id)
		}
		steps = append(steps, fmt.Sprintf("%s waits for %s", who, name(p)))
	}
	also := ""
	switch len(rest) {
	case 0:
	case 1:
		also = fmt.Sprintf("; %s waits in it too", rest[0])
	default:
		also = fmt.Sprintf("; %s wait in it too", strings.Join(rest, ", "))
	}
	pass.Reportf(anchor(pass), "after forms a cycle: %s, which waits for %q%s; none of these plans can start, so the correction never runs\nhelp: remove the after entry that does not follow the data",
		strings.Join(steps, ", "), id, also)
}

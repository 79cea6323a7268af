package downstream

import "github.com/bflint/bflint/rules"

// SnapshotDownstream reports dbt snapshots derived from the target that
// the plan does not account for.
var SnapshotDownstream = &rules.Rule{
	Code:     "BF808",
	Name:     "snapshot-downstream",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A dbt snapshot is derived from the target and not in downstream.skip",
		Why: "A snapshot cannot be rebuilt: it records how rows looked each time it ran. Re-running it after the correction " +
			"stamps the corrected values as new versions valid from now, so its history still holds the pre-correction values for the " +
			"very period the backfill fixed, and every as-of query over that period keeps returning them. " +
			"Decide what happens to that history (left as recorded and annotated, or corrected by hand with its own plan) " +
			"and record it as a downstream.skip entry with the reason.",
		Bad: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild: [model.shop.revenue_daily]
# snapshot.shop.orders_history reads fct_orders
`},
		Good: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild: [model.shop.revenue_daily]
  skip:
    - node: snapshot.shop.orders_history
      reason: history before the fix stays as recorded; annotated in the data catalogue
`},
	},
	Run: func(pass *rules.Pass) error {
		l, target := targetOf(pass)
		if target == "" {
			return nil
		}
		d := downstreamOf(pass.Plan)
		skipped := map[string]bool{}
		for _, s := range d.Skip {
			skipped[l.id(s.Node.V)] = true
		}
		snapshots := l.g.Snapshots(target)
		if len(snapshots) == 0 {
			return nil
		}
		ps := pathsFrom(l, target)
		// The skip list keeps no position of its own, so a finding
		// points at the downstream section that lacks the entry.
		for _, s := range snapshots {
			if skipped[s] {
				continue
			}
			pass.Reportf(pass.SectionOr(d.Field), "snapshot %q is derived from the target (%s): re-running it records the corrected values as new versions valid from now, so its history keeps the pre-correction values\nhelp: add it to downstream.skip with how that history is handled", s, chain(l.g, ps.to(s)))
		}
		return nil
	},
}

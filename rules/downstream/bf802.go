package downstream

import (
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// RebuildOrder reports a rebuild list that rebuilds a model before one of
// its upstream models.
var RebuildOrder = &rules.Rule{
	Code:     "BF802",
	Name:     "rebuild-order",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "downstream.rebuild lists a model before one of its upstream models",
		Why: "downstream.rebuild is the order in which the derived models are recomputed. A model rebuilt before a model it reads " +
			"recomputes from the upstream rows that are still stale, so it is rebuilt and still wrong, and the rebuild that would fix it " +
			"has already been ticked off. List every model after all the listed models it is derived from; `bflint lineage TARGET` prints a valid order.",
		Bad: rules.Example{Lang: "yaml", Text: `downstream:
  rebuild:
    - model.shop.revenue_monthly   # reads revenue_daily
    - model.shop.revenue_daily
`},
		Good: rules.Example{Lang: "yaml", Text: `downstream:
  rebuild:
    - model.shop.revenue_daily
    - model.shop.revenue_monthly
`},
	},
	Run: func(pass *rules.Pass) error {
		l := lookupOf(pass)
		if l == nil {
			return nil
		}
		type entry struct {
			id   string
			item plan.String
		}
		var listed []entry
		seen := map[string]bool{}
		for _, it := range downstreamOf(pass.Plan).Rebuild.Items {
			if id := l.id(it.V); id != "" && !seen[id] {
				seen[id] = true
				listed = append(listed, entry{id, it})
			}
		}
		// latest[v] is the position of the latest-listed entry that v is
		// derived from. Walking down from the entries, latest first, each
		// node takes the first mark it gets, and the walk stops at marked
		// nodes, whose descendants a later-listed entry has marked already:
		// every node is expanded once, however long the list.
		latest := map[string]int{}
		for j := len(listed) - 1; j >= 0; j-- {
			stack := append([]string(nil), l.m.Children(listed[j].id)...)
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if _, marked := latest[v]; marked {
					continue
				}
				latest[v] = j
				stack = append(stack, l.m.Children(v)...)
			}
		}
		for i, e := range listed {
			if j, ok := latest[e.id]; ok && j > i {
				up := listed[j].id
				pass.Reportf(e.item.At(), "downstream.rebuild lists %q before %q, which it is derived from: rebuilt in this order, %q recomputes from the stale rows of %q and stays wrong; move %q below %q", e.id, up, e.id, up, e.id, up)
			}
		}
		return nil
	},
}

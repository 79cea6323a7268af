package downstream

import (
	"fmt"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/fix"
	"golang.org/x/tools/go/analysis"
)

// entry is a resolved model of the rebuild list.
type entry struct {
	id   string
	item plan.String
}

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
		var listed []entry
		seen := map[string]bool{}
		for _, it := range downstreamOf(pass.Plan).Rebuild.Items {
			if id := l.id(it.V); id != "" && !seen[id] {
				seen[id] = true
				listed = append(listed, entry{id, it.String})
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
		var fixes []analysis.SuggestedFix
		for i, e := range listed {
			if j, ok := latest[e.id]; ok && j > i {
				up := listed[j].id
				if fixes == nil {
					fixes = reorderFix(pass, l, listed)
				}
				pass.Report(rules.Diagnostic{Diagnostic: analysis.Diagnostic{Pos: e.item.At(), SuggestedFixes: fixes, Message: fmt.Sprintf("downstream.rebuild lists %q before %q, which it is derived from: rebuilt in this order, %q recomputes from the stale rows of %q and stays wrong\nhelp: move %q below %q", e.id, up, e.id, up, e.id, up)}})
			}
		}
		return nil
	},
}

// reorderFix moves each listed model below every listed model it is derived
// from, keeping the written order wherever the lineage allows it; every
// finding on the list carries the same fix. There is none when the list
// holds a name the manifest does not resolve or a model twice, whose place
// the fix cannot know, or when a cycle leaves no order to reach: the result
// is then empty but not nil, so the rule works it out once per list.
func reorderFix(pass *rules.Pass, l *lookup, listed []entry) []analysis.SuggestedFix {
	items := downstreamOf(pass.Plan).Rebuild.Items
	if len(listed) != len(items) {
		return []analysis.SuggestedFix{}
	}
	placed := make([]bool, len(listed))
	var order []int
	for len(order) < len(listed) {
		next := -1
		for i := range listed {
			if placed[i] {
				continue
			}
			ready := true
			for j := range listed {
				if !placed[j] && j != i && l.g.Path(listed[j].id, listed[i].id) != nil {
					ready = false
					break
				}
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 {
			return []analysis.SuggestedFix{}
		}
		placed[next] = true
		order = append(order, next)
	}
	edits := fix.Reorder(pass.Unit.File, downstreamOf(pass.Plan).Rebuild, order)
	if edits == nil {
		return []analysis.SuggestedFix{}
	}
	return []analysis.SuggestedFix{{Message: "reorder downstream.rebuild so every model follows the models it is derived from", TextEdits: edits}}
}

package sets

import (
	"strings"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// planSet is every plan of the run as the units of one lineage see it,
// read once for all of them: each plan's target and range, and indexes
// that find the plans a rule compares with one plan without going
// through all the others.
type planSet struct {
	targets map[*plan.Plan]target
	spans   map[*plan.Plan]instants
	// byNode holds the plans whose target the manifest knows, by its
	// unique_id; byName every plan with a target, by the last part of each
	// name it has, lower-cased, which two names that match share.
	byNode map[string][]*plan.Plan
	byName map[string][]*plan.Plan
}

type instants struct{ start, end time.Time }

// setKey keys the plan set by the lineage its targets were resolved in.
type setKey struct{ g *lineage.Graph }

func setOf(pass *rules.Pass) *planSet {
	return pass.Shared(setKey{pass.Unit.Lineage()}, func() any {
		s := &planSet{
			targets: map[*plan.Plan]target{}, spans: map[*plan.Plan]instants{},
			byNode: map[string][]*plan.Plan{}, byName: map[string][]*plan.Plan{},
		}
		for _, p := range pass.Plans {
			if !hasID(p) {
				continue
			}
			if start, end, ok := span(p); ok {
				s.spans[p] = instants{start, end}
			}
			t, ok := targetOf(pass, p)
			if !ok {
				continue
			}
			s.targets[p] = t
			if t.node != "" {
				s.byNode[t.node] = append(s.byNode[t.node], p)
			}
			seen := map[string]bool{}
			for _, n := range t.names {
				if len(n.Parts) == 0 {
					continue
				}
				last := strings.ToLower(n.Parts[len(n.Parts)-1])
				if !seen[last] {
					seen[last] = true
					s.byName[last] = append(s.byName[last], p)
				}
			}
		}
		return s
	}).(*planSet)
}

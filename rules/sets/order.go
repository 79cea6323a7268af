package sets

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// order is how after orders the unit's plan against the rest of the run.
// An edge runs from a plan to every plan of the run whose id its after
// lists; ids are not unique across files, so one entry may name several.
type order struct {
	after map[*plan.Plan][]*plan.Plan
	// waitsFor holds the plans the unit's plan runs after, directly or
	// through other plans' after; itself too when it is on a cycle.
	waitsFor map[*plan.Plan]bool
	// waitedBy holds the plans that run after the unit's plan.
	waitedBy map[*plan.Plan]bool
}

type orderKey struct{}

// orderOf computes the order once per unit for both rules of the family.
func orderOf(pass *rules.Pass) *order {
	return pass.Unit.Fact(orderKey{}, func() any { return newOrder(pass.Plan, pass.Plans) }).(*order)
}

func newOrder(self *plan.Plan, plans []*plan.Plan) *order {
	byID := map[string][]*plan.Plan{}
	for _, p := range plans {
		if hasID(p) {
			byID[p.ID.V] = append(byID[p.ID.V], p)
		}
	}
	o := &order{after: map[*plan.Plan][]*plan.Plan{}}
	before := map[*plan.Plan][]*plan.Plan{}
	for _, p := range plans {
		for _, it := range p.After.Items {
			for _, q := range byID[it.V] {
				if !slices.Contains(o.after[p], q) {
					o.after[p] = append(o.after[p], q)
					before[q] = append(before[q], p)
				}
			}
		}
	}
	o.waitsFor = reach(self, o.after)
	o.waitedBy = reach(self, before)
	return o
}

// reach returns the plans reachable from p in one step or more.
func reach(p *plan.Plan, edges map[*plan.Plan][]*plan.Plan) map[*plan.Plan]bool {
	seen := map[*plan.Plan]bool{}
	queue := []*plan.Plan{p}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range edges[v] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return seen
}

// ordered reports whether after puts the unit's plan and q in some order.
func (o *order) ordered(q *plan.Plan) bool { return o.waitsFor[q] || o.waitedBy[q] }

// cycle returns the members of the cycle through self, self first, when
// self leads it (see leads), and a shortest chain of waits from self back
// to itself; nil when self is on no cycle or another member reports it.
func (o *order) cycle(self *plan.Plan) (members, chain []*plan.Plan) {
	if !o.waitsFor[self] {
		return nil, nil
	}
	members = []*plan.Plan{self}
	for q := range o.waitsFor {
		if q != self && o.waitedBy[q] {
			if !leads(self, q) {
				return nil, nil
			}
			members = append(members, q)
		}
	}
	slices.SortFunc(members[1:], compare)
	return members, o.shortestCycle(self, members)
}

// shortestCycle is a breadth-first search from self along after edges,
// within the cycle's members, back to self.
func (o *order) shortestCycle(self *plan.Plan, members []*plan.Plan) []*plan.Plan {
	in := map[*plan.Plan]bool{}
	for _, m := range members {
		in[m] = true
	}
	prev := map[*plan.Plan]*plan.Plan{}
	queue := []*plan.Plan{self}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range o.after[v] {
			if w == self {
				chain := []*plan.Plan{self}
				for at := v; at != self; at = prev[at] {
					chain = append(chain, at)
				}
				// Reverse all but the leading self, which stays first.
				for i, j := 1, len(chain)-1; i < j; i, j = i+1, j-1 {
					chain[i], chain[j] = chain[j], chain[i]
				}
				return append(chain, self)
			}
			if _, seen := prev[w]; !seen && in[w] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// leads orders the plans of a run by id, then by file, so that a finding
// about several plans is reported once, by the same plan in every run.
func leads(a, b *plan.Plan) bool { return compare(a, b) < 0 }

func compare(a, b *plan.Plan) int {
	return cmp.Or(strings.Compare(a.ID.V, b.ID.V), strings.Compare(a.File.Name, b.File.Name))
}

func hasID(p *plan.Plan) bool { return p.ID.Set && strings.TrimSpace(p.ID.V) != "" }

// name is how a message names another plan of the run: its id and file.
func name(p *plan.Plan) string { return fmt.Sprintf("%q (%s)", p.ID.V, p.File.Name) }

// anchor is where a finding about the unit's ordering points: its after
// key, or the plan's first key when it has none.
func anchor(pass *rules.Pass) token.Pos { return pass.SectionOr(pass.Plan.After.Field) }

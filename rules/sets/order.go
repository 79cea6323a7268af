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

// order is how after orders the unit's plan against the rest of the run:
// a view of the run's order, computed once for every unit.
type order struct {
	run  *runOrder
	self int
}

// runOrder is how after orders every plan of the run. An edge runs from a
// plan to every plan of the run whose id its after lists; ids are not
// unique across files, so one entry may name several. Plans that wait for
// each other in a cycle form one component; reach holds, for each
// component, the components it waits for, directly or not, as a bit set,
// so that asking whether two plans are ordered costs the same for a chain
// of thousands of plans as for two.
type runOrder struct {
	plans []*plan.Plan
	index map[*plan.Plan]int
	after [][]int
	comp  []int // the component of each plan
	// members lists the plans of each component; cyclic is set for a
	// component whose plans wait for themselves (a cycle, or a plan
	// listing its own id).
	members [][]int
	cyclic  []bool
	reach   []bitset
}

type orderKey struct{}

// orderOf returns the run's order as the unit's plan sees it.
func orderOf(pass *rules.Pass) *order {
	run := pass.Shared(orderKey{}, func() any { return newRunOrder(pass.Plans) }).(*runOrder)
	self, ok := run.index[pass.Plan]
	if !ok {
		// A plan the set leaves out (one that could not be read) is
		// ordered with nothing.
		self = -1
	}
	return &order{run: run, self: self}
}

func newRunOrder(plans []*plan.Plan) *runOrder {
	o := &runOrder{plans: plans, index: make(map[*plan.Plan]int, len(plans)), after: make([][]int, len(plans))}
	byID := map[string][]int{}
	for i, p := range plans {
		o.index[p] = i
		if hasID(p) {
			byID[p.ID.V] = append(byID[p.ID.V], i)
		}
	}
	for i, p := range plans {
		for _, it := range p.After.Items {
			for _, j := range byID[it.V] {
				if !slices.Contains(o.after[i], j) {
					o.after[i] = append(o.after[i], j)
				}
			}
		}
	}
	o.components()
	return o
}

// components finds the strongly connected components of the after graph
// (Tarjan's algorithm, without recursion, so that a chain of any length
// fits the stack) and the reach of each. Tarjan completes a component
// after every component it waits for, so each reach is the union of
// reaches already known.
func (o *runOrder) components() {
	n := len(o.plans)
	const unseen = -1
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unseen
	}
	o.comp = make([]int, n)
	var stack []int
	type frame struct{ v, edge int }
	counter := 0
	for root := range n {
		if index[root] != unseen {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.edge < len(o.after[f.v]) {
				w := o.after[f.v][f.edge]
				f.edge++
				switch {
				case index[w] == unseen:
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].v
				low[parent] = min(low[parent], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			c := len(o.members)
			var members []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				o.comp[w] = c
				members = append(members, w)
				if w == v {
					break
				}
			}
			o.members = append(o.members, members)
			o.cyclic = append(o.cyclic, len(members) > 1 || slices.Contains(o.after[v], v))
			// Most plans wait for none: they share the empty set.
			var reach bitset
			for _, m := range members {
				for _, w := range o.after[m] {
					if d := o.comp[w]; d != c {
						if reach == nil {
							reach = newBitset(n)
						}
						reach.set(d)
						reach.or(o.reach[d])
					}
				}
			}
			o.reach = append(o.reach, reach)
		}
	}
}

// waitsFor reports whether plan i runs after plan j, directly or through
// other plans' after; a plan on a cycle waits for itself.
func (o *runOrder) waitsFor(i, j int) bool {
	if i < 0 || j < 0 {
		return false
	}
	ci, cj := o.comp[i], o.comp[j]
	if ci == cj {
		return o.cyclic[ci]
	}
	return o.reach[ci].has(cj)
}

// waitsFor reports whether the unit's plan runs after q.
func (o *order) waitsFor(q *plan.Plan) bool { return o.run.waitsFor(o.self, o.run.indexOf(q)) }

// waitedBy reports whether q runs after the unit's plan.
func (o *order) waitedBy(q *plan.Plan) bool { return o.run.waitsFor(o.run.indexOf(q), o.self) }

func (o *runOrder) indexOf(q *plan.Plan) int {
	if i, ok := o.index[q]; ok {
		return i
	}
	return -1
}

// cycle returns the members of the cycle through the unit's plan, itself
// first, when it leads them (see leads), and a shortest chain of waits
// from it back to itself; nil when it is on no cycle or another member
// reports it.
func (o *order) cycle() (members, chain []*plan.Plan) {
	if o.self < 0 {
		return nil, nil
	}
	c := o.run.comp[o.self]
	if !o.run.cyclic[c] {
		return nil, nil
	}
	self := o.run.plans[o.self]
	members = []*plan.Plan{self}
	for _, m := range o.run.members[c] {
		q := o.run.plans[m]
		if q == self {
			continue
		}
		if !leads(self, q) {
			return nil, nil
		}
		members = append(members, q)
	}
	slices.SortFunc(members[1:], compare)
	return members, o.shortestCycle(c)
}

// shortestCycle is a breadth-first search from the unit's plan along
// after edges, within its component, back to itself.
func (o *order) shortestCycle(c int) []*plan.Plan {
	run, self := o.run, o.self
	prev := map[int]int{}
	queue := []int{self}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range run.after[v] {
			if w == self {
				chain := []*plan.Plan{run.plans[self]}
				for at := v; at != self; at = prev[at] {
					chain = append(chain, run.plans[at])
				}
				// Reverse all but the leading self, which stays first.
				for i, j := 1, len(chain)-1; i < j; i, j = i+1, j-1 {
					chain[i], chain[j] = chain[j], chain[i]
				}
				return append(chain, run.plans[self])
			}
			if _, seen := prev[w]; !seen && run.comp[w] == c {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// bitset is a set of small integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) or(other bitset) {
	for i, w := range other {
		b[i] |= w
	}
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

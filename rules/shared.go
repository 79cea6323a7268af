package rules

import (
	"sync"

	"github.com/bflint/bflint/parser/plan"
)

// sharedFacts are what a rule derives from the run as a whole (the order
// of every plan, their targets), computed once for all units: units run in
// parallel, and a fact of the run recomputed per unit makes the run's
// work grow with the square of its plans.
type sharedFacts struct {
	mu     sync.Mutex
	values map[any]*sharedValue
	linted map[*plan.Plan]bool
}

type sharedValue struct {
	once sync.Once
	v    any
}

// Shared returns what compute derives from the whole run, computing it
// once however many units ask, each waiting for the first. compute must
// read only the run (Plans, and what key names), never the asking unit.
func (p *Pass) Shared(key any, compute func() any) any {
	s := p.shared
	if s == nil {
		return compute()
	}
	s.mu.Lock()
	sv, ok := s.values[key]
	if !ok {
		sv = &sharedValue{}
		s.values[key] = sv
	}
	s.mu.Unlock()
	sv.once.Do(func() { sv.v = compute() })
	return sv.v
}

// Linted reports whether q is a plan the run reports on, rather than one
// read only as context for the plan set.
func (p *Pass) Linted(q *plan.Plan) bool {
	if p.shared == nil {
		return true
	}
	return p.shared.linted[q]
}

package sets

import (
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/rules"
)

// target is a plan's target as the unit being linted can name it: every
// plan of the run is seen through this unit's manifest.
type target struct {
	plan *plan.Plan
	// node is the target's unique_id in the unit's manifest; "" without a
	// manifest, or when the target is not in it.
	node string
	// names are the relation names SQL may read the target by: the plan's
	// value, and the manifest's relation for the node.
	names []sqlname.Relation
}

func targetOf(pass *rules.Pass, p *plan.Plan) (target, bool) {
	// TargetRelation reads nothing of a pass but its plan, so a pass over
	// another plan of the run names that plan's target the way every other
	// rule names its own.
	rel, ok := (&rules.Pass{Plan: p}).TargetRelation()
	if !ok {
		return target{}, false
	}
	t := target{plan: p, names: []sqlname.Relation{rel}}
	id, built, ok := pass.TargetNode(p)
	t.node = id
	if ok {
		t.names = append(t.names, built)
	}
	return t, true
}

// same reports whether two targets are one dataset. When the manifest
// knows both, its nodes decide: model.shop.orders and model.finance.orders
// share a name but not a table, while a model and its relation name are
// one. Otherwise the names decide, a shorter name matching the trailing
// parts of a longer one.
func (t target) same(o target) bool {
	if t.node != "" && o.node != "" {
		return t.node == o.node
	}
	for _, a := range t.names {
		for _, b := range o.names {
			if a.Matches(b) {
				return true
			}
		}
	}
	return false
}

// readBy returns the first relation the unit's build SQL reads that names
// t, and whether there is one. Only the build counts: it computes the
// unit's target, while validation and publish read the target on purpose.
func (t target) readBy(pass *rules.Pass) (sqlname.Relation, bool) {
	for _, r := range buildReads(pass) {
		for _, n := range t.names {
			if r.Matches(n) {
				return r, true
			}
		}
	}
	return sqlname.Relation{}, false
}

// buildReads are the relations the unit's staging.build statements read,
// in order.
func buildReads(pass *rules.Pass) []sqlname.Relation {
	var out []sqlname.Relation
	for _, f := range pass.Unit.SQL {
		if !f.Has("staging.build") || f.Parsed == nil {
			continue
		}
		for _, st := range f.Parsed.Statements {
			out = append(out, st.Reads()...)
		}
	}
	return out
}

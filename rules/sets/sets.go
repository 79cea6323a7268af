// Package sets holds the rules about the plans of one run taken together. A
// correction that touches several datasets is several plans, one per
// target, ordered with after: the plans must run in the order the data
// flows, their after lists must be satisfiable, and two plans must not
// correct the same partitions of one target at the same time.
//
// The set is every readable plan bflint was given in one invocation. An
// after entry that names no plan of the set adds no ordering and is not a
// finding: the plan it names may be linted, or already run, elsewhere. A
// plan without an id takes no part: nothing can name it in after, and
// BF001 already asks for the id.
package sets

import "github.com/bflint/bflint/rules"

// Rules are the plan-set family.
var Rules = []*rules.Rule{PlanOrder, OverlappingPlans}

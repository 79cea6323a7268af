// Package rollback holds the rules about undoing a publish: that the plan
// states its rollback as specifically as its publish, that it was tried,
// and that it outlives the time it takes to notice a wrong number.
package rollback

import "github.com/bflint/bflint/rules"

// Rules are the rollback family.
var Rules = []*rules.Rule{Missing, Incomplete, Untested, ExpiresEarly}

// Package compute holds the rules about where a backfill's compute runs and
// how much of it the backfill may take at once.
package compute

import "github.com/bflint/bflint/rules"

// Rules are the compute family.
var Rules = []*rules.Rule{Unplanned}

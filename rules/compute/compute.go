// Package compute holds the rules about where a backfill's compute runs,
// how much of it the backfill may take at once, and the run command flags
// that decide what that compute actually redoes.
package compute

import "github.com/bflint/bflint/rules"

// Rules are the compute family.
var Rules = []*rules.Rule{Unplanned, UnsafeRunFlag}

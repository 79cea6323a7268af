// Package rerun holds the rerun rules.
package rerun

import "github.com/bflint/bflint/rules"

// Rules are the rerun family.
var Rules = []*rules.Rule{}

// Package compute holds the compute rules.
package compute

import "github.com/bflint/bflint/rules"

// Rules are the compute family.
var Rules = []*rules.Rule{}

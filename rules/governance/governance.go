// Package governance holds the governance rules.
package governance

import "github.com/bflint/bflint/rules"

// Rules are the governance family.
var Rules = []*rules.Rule{}

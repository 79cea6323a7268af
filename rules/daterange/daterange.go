// Package daterange holds the daterange rules.
package daterange

import "github.com/bflint/bflint/rules"

// Rules are the daterange family.
var Rules = []*rules.Rule{}

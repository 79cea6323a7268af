// Package validation holds the validation rules.
package validation

import "github.com/bflint/bflint/rules"

// Rules are the validation family.
var Rules = []*rules.Rule{}

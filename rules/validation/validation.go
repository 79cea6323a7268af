// Package validation holds the rules about the gate before publish: that the
// plan has checks, that each states a numeric pass criterion, and that one of
// them compares a period the correction must not move.
package validation

import "github.com/bflint/bflint/rules"

// Rules are the validation family.
var Rules = []*rules.Rule{Missing, NotNumeric, NoControlPeriod}

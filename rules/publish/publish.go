// Package publish holds the publish rules.
package publish

import "github.com/bflint/bflint/rules"

// Rules are the publish family.
var Rules = []*rules.Rule{}

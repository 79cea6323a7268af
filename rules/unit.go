package rules

import (
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

// Unit is what rules run on: one plan with the files it references, or one
// standalone SQL file. Units are independent, so they run in parallel.
type Unit struct {
	File *source.File
	Plan *plan.Plan // nil for a standalone SQL file
	// SQL are the SQL files a plan references, by plan key, read once for
	// every rule.
	SQL map[string]*source.File
	// ReadError is set when the file could not be read; the unit then only
	// carries that finding.
	ReadError error
	// Directives are the bflint:ignore comments of the unit's files.
	Directives []*Directive
}

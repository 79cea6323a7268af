// Package all assembles every rule family into the registry the CLI uses.
package all

import (
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/compute"
	"github.com/bflint/bflint/rules/daterange"
	"github.com/bflint/bflint/rules/downstream"
	"github.com/bflint/bflint/rules/files"
	"github.com/bflint/bflint/rules/governance"
	"github.com/bflint/bflint/rules/publish"
	"github.com/bflint/bflint/rules/rerun"
	"github.com/bflint/bflint/rules/rollback"
	"github.com/bflint/bflint/rules/scd2"
	"github.com/bflint/bflint/rules/sets"
	"github.com/bflint/bflint/rules/validation"
)

// families lists every rule family; a family is one package under rules/.
var families = [][]*rules.Rule{
	files.Rules,
	daterange.Rules,
	rerun.Rules,
	compute.Rules,
	validation.Rules,
	publish.Rules,
	rollback.Rules,
	downstream.Rules,
	scd2.Rules,
	sets.Rules,
	governance.Rules,
}

// Registry returns a registry of every bflint rule.
func Registry() *rules.Registry {
	var rs []*rules.Rule
	for _, f := range families {
		rs = append(rs, f...)
	}
	return rules.NewRegistry(rs...)
}

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

// family is one package under rules/ and its rules.
type family struct {
	name  string
	rules []*rules.Rule
}

// families lists every rule family.
var families = []family{
	{"files", files.Rules},
	{"daterange", daterange.Rules},
	{"rerun", rerun.Rules},
	{"compute", compute.Rules},
	{"validation", validation.Rules},
	{"publish", publish.Rules},
	{"rollback", rollback.Rules},
	{"downstream", downstream.Rules},
	{"scd2", scd2.Rules},
	{"sets", sets.Rules},
	{"governance", governance.Rules},
}

// Registry returns a registry of every bflint rule.
func Registry() *rules.Registry {
	var rs []*rules.Rule
	for _, f := range families {
		rs = append(rs, f.rules...)
	}
	return rules.NewRegistry(rs...)
}

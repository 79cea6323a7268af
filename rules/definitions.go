package rules

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
)

// Definitions are what the run's SQL files say about the relations they
// build, shared by every unit: a join in one file may be right or wrong
// by how another file defines the joined relation. Relations are known
// by the last part of their name, in lower case (a dbt model by its file
// name), so a definition outside the linted files is not seen.
type Definitions struct {
	inclusiveEnds map[string]map[string]bool
	// modelVars are the dbt vars each model's file reads, by model name.
	modelVars map[string][]string
}

// AddModelVars records the dbt vars a model's file reads with var().
func (d *Definitions) AddModelVars(model string, names []string) {
	if len(names) == 0 {
		return
	}
	if d.modelVars == nil {
		d.modelVars = map[string][]string{}
	}
	d.modelVars[strings.ToLower(model)] = names
}

// ModelVars are the dbt vars the run's file of model reads; nil when the
// run read no file of that model, or it reads none.
func (d *Definitions) ModelVars(model string) []string {
	if d == nil {
		return nil
	}
	return d.modelVars[strings.ToLower(model)]
}

// AddInclusiveEnds records columns of relation that end each version the
// day before the next one starts (sqlparse.Statement.DayBeforeNext).
func (d *Definitions) AddInclusiveEnds(relation string, cols []string) {
	if len(cols) == 0 {
		return
	}
	if d.inclusiveEnds == nil {
		d.inclusiveEnds = map[string]map[string]bool{}
	}
	key := strings.ToLower(relation)
	if d.inclusiveEnds[key] == nil {
		d.inclusiveEnds[key] = map[string]bool{}
	}
	for _, c := range cols {
		d.inclusiveEnds[key][strings.ToLower(c)] = true
	}
}

// InclusiveEnd reports whether a run's SQL file defines col of rel as the
// day before the next version starts: the interval includes its end.
func (d *Definitions) InclusiveEnd(rel sqlname.Relation, col string) bool {
	if d == nil || len(rel.Parts) == 0 {
		return false
	}
	return d.inclusiveEnds[strings.ToLower(rel.Parts[len(rel.Parts)-1])][strings.ToLower(col)]
}

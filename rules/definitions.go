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

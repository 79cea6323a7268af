package scd2

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/rules"
)

// snapshot is a dbt snapshot as the project describes it: its relation,
// the names of its validity columns, and dbt_valid_to_current, the
// expression its current rows carry instead of NULL ("" when its config
// sets none).
type snapshot struct {
	rel                sqlname.Relation
	validFrom, validTo string
	validToCurrent     string
}

// cataloged is a relation catalog.json shows with validity columns.
type cataloged struct {
	rel                sqlname.Relation
	validFrom, validTo string
}

// dimensions knows which relations of a pass are type-2 dimensions.
type dimensions struct {
	// snapshots are the project's dbt snapshots, from the unit's manifest.
	// They are the most precise source (their own validity names and
	// dbt_valid_to_current) and are consulted first.
	snapshots []snapshot
	// cataloged are relations whose catalog.json columns include both a
	// valid-from and a valid-to name.
	cataloged []cataloged
	// patterns are scd2.relations: doublestar globs over lower-cased names.
	patterns []string
	// validFrom and validTo are the configured validity column names.
	validFrom, validTo names
}

func newDimensions(pass *rules.Pass) *dimensions {
	from, to := pass.Config.ValidityColumns()
	ds := &dimensions{
		patterns:  pass.Config.SCD2Relations(),
		validFrom: names(lower(from)),
		validTo:   names(lower(to)),
	}
	if m, catalog := pass.Unit.Manifest(), pass.Unit.Catalog(); m != nil && catalog != nil {
		for _, id := range catalog.IDs() {
			n := m.Node(id)
			if n == nil || m.RelationName(n) == "" {
				continue
			}
			if from, to := validityPair(catalog.Columns(id), ds.validFrom, ds.validTo); from != "" {
				ds.cataloged = append(ds.cataloged, cataloged{sqlname.Parse(m.RelationName(n)), from, to})
			}
		}
	}
	if m := pass.Unit.Manifest(); m != nil {
		for _, n := range m.Snapshots() {
			name := m.RelationName(n)
			if name == "" {
				continue
			}
			vf, vt := n.ValidityColumns()
			ds.snapshots = append(ds.snapshots, snapshot{
				rel:            sqlname.Parse(name),
				validFrom:      vf,
				validTo:        vt,
				validToCurrent: n.Config.DBTValidToCurrent,
			})
		}
	}
	return ds
}

// mayJoin reports whether SQL text can hold a join this family reads.
// With no relation known to be type-2, a join is one only through the
// validity or current-flag columns the SQL uses, and those are written out
// in the file (Jinja only adds relation names), so a file that names none
// of them has no such join and its statements' joins need not be read.
func (ds *dimensions) mayJoin(text string) bool {
	if len(ds.snapshots) > 0 || len(ds.cataloged) > 0 || len(ds.patterns) > 0 {
		return true
	}
	text = strings.ToLower(text)
	for _, ns := range []names{ds.validFrom, ds.validTo, currentFlagNames} {
		for _, word := range ns.words() {
			if strings.Contains(text, word) {
				return true
			}
		}
	}
	return false
}

// dimension is what is known about a joined relation that may be type-2.
type dimension struct {
	validFrom, validTo names
	// known is set when a snapshot or a configured pattern names the
	// relation, so it is type-2 whatever the statement does with it; via
	// says which, for messages.
	known bool
	via   string
	// snap is the relation's dbt snapshot, when one describes it.
	snap *snapshot
}

// lookup returns what the pass knows about rel before reading the
// statement: a snapshot, a configured pattern, or only the configured
// validity names, which the statement must then show it uses.
func (ds *dimensions) lookup(rel sqlname.Relation) dimension {
	for i := range ds.snapshots {
		if s := &ds.snapshots[i]; rel.Matches(s.rel) {
			return dimension{validFrom: names{strings.ToLower(s.validFrom)}, validTo: names{strings.ToLower(s.validTo)}, known: true, via: "a dbt snapshot", snap: s}
		}
	}
	for _, c := range ds.cataloged {
		if rel.Matches(c.rel) {
			return dimension{validFrom: names{c.validFrom}, validTo: names{c.validTo}, known: true, via: "catalog.json lists its validity columns"}
		}
	}
	d := dimension{validFrom: ds.validFrom, validTo: ds.validTo}
	if rules.MatchesAny(ds.patterns, rel) {
		d.known, d.via = true, "listed in scd2.relations"
	}
	return d
}

// dropsCurrentRows reports whether the dimension's current rows have NULL
// in the valid_to column named to. A known snapshot says so by lacking
// dbt_valid_to_current. Without one, the dbt_valid_to name is taken as the
// sign of a dbt snapshot with dbt's defaults, whose current rows are NULL;
// other names are assumed to close current rows with a far-future date.
func (d dimension) dropsCurrentRows(to string) bool {
	if d.snap != nil {
		return d.snap.validToCurrent == ""
	}
	return to == "dbt_valid_to"
}

// isCurrentValue reports whether text is the valid_to value that marks a
// current row: the snapshot's dbt_valid_to_current, or a far-future date.
func (d dimension) isCurrentValue(text string) bool {
	if d.snap != nil && d.snap.validToCurrent != "" && text != "" && strings.Contains(d.snap.validToCurrent, text) {
		return true
	}
	return farFuture(text)
}

// farFuture reports whether a date or timestamp literal lies in the year
// 2099 or later: no real version ends there, so it is a sentinel for "still
// current" ('9999-12-31', '2999-12-31 23:59:59').
func farFuture(text string) bool {
	text = strings.TrimSpace(text)
	if len(text) < 10 || text[4] != '-' {
		return false
	}
	year := 0
	for _, c := range text[:4] {
		if c < '0' || c > '9' {
			return false
		}
		year = year*10 + int(c-'0')
	}
	return year >= 2099
}

// pair chooses the validity names a message shows: those the statement
// uses, else the counterpart at the same place in the other list (valid_from
// goes with valid_to, dbt_valid_from with dbt_valid_to), else the first.
func (d dimension) pair(usedFrom, usedTo string) (from, to string) {
	from, to = usedFrom, usedTo
	if from != "" && to == "" {
		to = d.validFrom.counterpart(from, d.validTo)
	}
	if to != "" && from == "" {
		from = d.validTo.counterpart(to, d.validFrom)
	}
	if from == "" {
		from = d.validFrom.first()
	}
	if to == "" {
		to = d.validTo.first()
	}
	return from, to
}

func lower(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out
}

// validityPair finds a valid-from and a valid-to name among a relation's
// columns; both are empty unless both are there.
func validityPair(columns []string, from, to names) (string, string) {
	var f, t string
	for _, c := range columns {
		if f == "" && from.has(c) {
			f = c
		}
		if t == "" && to.has(c) {
			t = c
		}
	}
	if f == "" || t == "" {
		return "", ""
	}
	return f, t
}

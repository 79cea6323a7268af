package scd2

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// dimJoin is one join to a type-2 dimension and what its predicates (the
// ONs of its FROM clause and its conjuncts of WHERE) do with the validity
// columns.
type dimJoin struct {
	file *rules.SQLFile
	join fact.JoinedRelation
	dim  dimension
	// lone is set for the only item of a FROM clause (a correlated
	// subquery), whose unqualified columns are its own.
	lone bool
	// leading is set for the first of several FROM items: the relation a
	// query starts from, whose rows (here its versions) are the rows it
	// produces.
	leading bool
	// overlap is set when the dimension's validity columns are compared
	// with both ends of another relation's validity interval: an
	// interval-overlap join of two histories, which yields one row per
	// overlapping pair by design.
	overlap bool
	// otherFrom and otherTo record which ends of another relation's
	// validity interval the comparisons use.
	otherFrom, otherTo bool
	// keepsRows is set when a row of the other side that matches no
	// version is kept: an outer join, a scalar subquery.
	keepsRows bool
	// usedFrom and usedTo are validity names the statement uses for the
	// dimension ("" when none).
	usedFrom, usedTo string
	// lower and upper are the comparisons of valid_from and valid_to with
	// a column of the other side.
	lower, upper []comparison
	// current describes a filter that keeps only the current version;
	// "" when there is none.
	current string
	// nullSafe is set when a predicate tests valid_to IS NULL, so current
	// rows of a snapshot whose valid_to is NULL are provided for.
	nullSafe bool
	// pinned is set when a validity column equals a column of the other
	// side: a fact that stores the version it was built with, or the next
	// version starting where the previous ended. Either picks one version.
	pinned bool
	// statement is the statement that makes the join.
	statement *sqlparse.Statement
	// fromTokens is set when the statement did not parse and was read
	// from its tokens; partial when a predicate that may concern the
	// dimension did not parse even on its own, so an absence (of a bound,
	// of NULL handling) cannot be told.
	fromTokens, partial bool
}

// comparison is a validity column compared with the other side.
type comparison struct {
	column string
	// op is read with the validity column on the left: valid_to > r.ts is
	// an open upper bound, valid_to >= r.ts a closed one.
	op string
	// between is set for r.ts BETWEEN valid_from AND valid_to.
	between bool
	// coalesced is set when the column is wrapped in COALESCE (or IFNULL,
	// NVL), which gives NULL a value the comparison can hold for.
	coalesced bool
}

// closed reports whether an upper bound includes the end of the version.
func (c comparison) closed() bool { return c.between || c.op == ">=" }

// forEachJoin calls fn for every join to a type-2 dimension in the unit's
// SQL, with its predicates read.
func forEachJoin(pass *rules.Pass, fn func(*dimJoin)) {
	for _, dj := range pass.Unit.Fact(joinsFact{}, func() any { return dimensionJoins(pass) }).([]*dimJoin) {
		fn(dj)
	}
}

// joinsFact keys the unit's dimension joins, found once for the four rules.
type joinsFact struct{}

func dimensionJoins(pass *rules.Pass) []*dimJoin {
	var out []*dimJoin
	dims := newDimensions(pass)
	for _, f := range pass.Unit.SQL {
		if !dims.mayJoin(f.Source.Text()) {
			continue
		}
		for _, st := range f.Parsed.Statements {
			joined := pass.Joined(st)
			if len(joined.Relations) == 0 {
				continue
			}
			writes, _ := pass.Writes(st)
			model := dbtModelName(f, st)
			for _, jr := range joined.Relations {
				if writesRelation(writes, jr.Relation) || model != "" && jr.Relation.Matches(sqlname.Relation{Parts: []string{model}}) {
					continue
				}
				c := jr.Clause
				lone := !c.Target && c.Items == 1
				leading := !c.Target && c.Items > 1 && c.First == jr.Offset
				dj := &dimJoin{file: f, join: jr, dim: dims.lookup(jr.Relation), lone: lone, leading: leading,
					keepsRows: !jr.Inner || lone && c.Scalar, statement: st,
					fromTokens: joined.FromTokens, partial: jr.Partial}
				out = dj.keep(out, joined.Columns, leading)
			}
		}
	}
	return out
}

// reduced reports whether the statement keeps one row per group with a
// QUALIFY filter (QUALIFY ROW_NUMBER() OVER (...) = 1): a row matching
// two versions may be reduced to one, which the rules cannot tell. Asked
// only of the joins a rule would report, as it walks the statement.
func (dj *dimJoin) reduced() bool { return dj.statement.KeepsOnePerGroup() }

// keep reads the join's predicates and adds it to out when it is a join to
// a type-2 dimension; leading is set for the first of several FROM items.
func (dj *dimJoin) keep(out []*dimJoin, refs map[string]map[string]bool, leading bool) []*dimJoin {
	if dj.lone && !dj.correlated() {
		return out
	}
	dj.read(refs)
	// A current-row filter alone marks a dimension only where one is
	// joined to something: the relation a query starts from is its fact,
	// whose latest version may well be what it wants.
	if dj.dim.known || dj.usedFrom != "" && dj.usedTo != "" || dj.current != "" && !leading {
		out = append(out, dj)
	}
	return out
}

// reportf reports a finding at the join, saying so when the statement was
// read from its tokens.
func (dj *dimJoin) reportf(pass *rules.Pass, format string, args ...any) {
	pass.ReporterFor(dj.fromTokens)(dj.file.Pos(dj.join.Offset), format, args...)
}

// dbtModelName is the model a dbt model file defines, which {{ this }}
// names; "" for other SQL. A model that reads {{ this }} maintains itself,
// as a statement writing a relation does.
func dbtModelName(f *rules.SQLFile, st *sqlparse.Statement) string {
	if f.Parsed.Model == nil && st.Variant == "" {
		return ""
	}
	return strings.TrimSuffix(path.Base(f.Source.Name), path.Ext(f.Source.Name))
}

// writesRelation reports whether the statement writes rel: a statement
// that maintains a dimension reads its current rows on purpose.
func writesRelation(writes []fact.Write, rel sqlname.Relation) bool {
	for _, w := range writes {
		if w.Target.Matches(rel) {
			return true
		}
	}
	return false
}

// correlated reports whether the only relation of a FROM clause is
// compared with a column from outside it: a subquery looking up the
// dimension for each row of the outer query is a join too.
func (dj *dimJoin) correlated() bool {
	for _, t := range dj.join.Where {
		if other, _ := dj.columns(t.Columns); other {
			return true
		}
	}
	return false
}

// read classifies the predicates and the statement's use of the validity
// columns.
func (dj *dimJoin) read(refs map[string]map[string]bool) {
	own := maps.Clone(refs[strings.ToLower(dj.join.Alias)])
	if own == nil {
		own = map[string]bool{}
	}
	if dj.lone {
		for _, t := range dj.join.Where {
			for _, c := range t.AllColumns {
				if c.Qualifier == "" {
					own[c.Name] = true
				}
			}
		}
	}
	// The statement names the relation's columns through the renames of
	// the WITH queries it is joined through.
	base := make(map[string]bool, len(own))
	for c := range own {
		if b := dj.join.Column(c); b != "" {
			base[b] = true
		}
	}
	dj.usedFrom = dj.dim.validFrom.firstUsed(base)
	dj.usedTo = dj.dim.validTo.firstUsed(base)
	for _, terms := range [][]fact.Term{dj.join.On, dj.join.Where} {
		for _, t := range terms {
			dj.predicate(t)
			dj.pinned = dj.pinned || dj.versionKey(t)
			for _, tested := range t.NullTested {
				if col, isTo, coalesced := dj.validity(tested); col != "" && isTo && !coalesced {
					dj.nullSafe = true
				}
			}
		}
	}
	dj.overlap = dj.otherFrom && dj.otherTo
}

// predicate reads one conjunct.
func (dj *dimJoin) predicate(t fact.Term) {
	switch t.Kind {
	case fact.TermOr:
		// (r.ts < d.valid_to OR d.valid_to IS NULL) is still a bound; an
		// OR with anything else in it is not.
		var lower, upper []comparison
		for _, arm := range t.Arms {
			if arm.Kind == fact.TermIsNull {
				if col, isTo, _ := dj.validity(arm.Operands[0]); col != "" && isTo {
					continue
				}
			}
			lo, up, _ := dj.bounds(arm)
			if lo == nil && up == nil {
				return
			}
			lower, upper = append(lower, lo...), append(upper, up...)
		}
		dj.lower, dj.upper = append(dj.lower, lower...), append(dj.upper, upper...)
	case fact.TermCompare, fact.TermBetween:
		lo, up, pinned := dj.bounds(t)
		dj.lower, dj.upper = append(dj.lower, lo...), append(dj.upper, up...)
		dj.pinned = dj.pinned || pinned
		dj.currentComparison(t)
	case fact.TermColumn:
		if op := t.Operands[0]; dj.isFlag(op) {
			dj.setCurrent(dj.name(op.Column.Name))
		}
	case fact.TermIsTrue:
		if op := t.Operands[0]; dj.isFlag(op) {
			dj.setCurrent(dj.name(op.Column.Name) + " IS TRUE")
		}
	case fact.TermIsNull:
		if col, isTo, coalesced := dj.validity(t.Operands[0]); col != "" && isTo && !coalesced {
			dj.setCurrent(dj.name(col) + " IS NULL")
		}
	}
}

func (dj *dimJoin) setCurrent(desc string) {
	if dj.current == "" {
		dj.current = desc
	}
}

// bounds reads the comparisons of validity columns with the other side in
// t: valid_from or valid_to op an expression over another relation's
// columns, or r.ts BETWEEN valid_from AND valid_to. pinned is set for an
// equality instead.
func (dj *dimJoin) bounds(t fact.Term) (lower, upper []comparison, pinned bool) {
	add := func(col string, isTo bool, c comparison) {
		c.column = col
		if isTo {
			upper = append(upper, c)
		} else {
			lower = append(lower, c)
		}
	}
	switch t.Kind {
	case fact.TermCompare:
		op := t.Op
		if !orderOps[op] && op != "=" {
			return nil, nil, false
		}
		l, r := t.Operands[0], t.Operands[1]
		col, isTo, coalesced := dj.validity(l)
		if col == "" {
			col, isTo, coalesced = dj.validity(r)
			r = l
			op = flipped[op]
		}
		other, own := dj.columns(r.Columns)
		switch {
		case col == "" || !other || own:
		case op == "=":
			pinned = true
		default:
			add(col, isTo, comparison{op: op, coalesced: coalesced})
			dj.noteOtherValidity(r.Columns)
		}
	case fact.TermBetween:
		if other, own := dj.columns(t.Operands[0].Columns); !other || own {
			return nil, nil, false
		}
		if col, isTo, coalesced := dj.validity(t.Operands[1]); col != "" {
			add(col, isTo, comparison{op: "<=", between: true, coalesced: coalesced})
		}
		if col, isTo, coalesced := dj.validity(t.Operands[2]); col != "" {
			add(col, isTo, comparison{op: ">=", between: true, coalesced: coalesced})
		}
	}
	return lower, upper, pinned
}

// currentComparison reads the comparisons that keep only the current
// version: is_current = true, valid_to = '9999-12-31' (or >= a far-future
// date, or the snapshot's dbt_valid_to_current), valid_to > CURRENT_DATE,
// CURRENT_DATE BETWEEN valid_from AND valid_to.
func (dj *dimJoin) currentComparison(t fact.Term) {
	if t.Kind == fact.TermBetween {
		if dj.isNow(t.Operands[0]) {
			if col, isTo, _ := dj.validity(t.Operands[2]); col != "" && isTo {
				from, _ := dj.validityNames()
				dj.setCurrent(fmt.Sprintf("the current time BETWEEN %s AND %s", from, dj.name(col)))
			}
		}
		return
	}
	op := t.Op
	l, r := t.Operands[0], t.Operands[1]
	if op == "=" {
		for _, side := range [][2]fact.Operand{{l, r}, {r, l}} {
			if dj.isFlag(side[0]) && side[1].Truthy {
				dj.setCurrent(dj.name(side[0].Column.Name) + " = " + side[1].Spelling)
				return
			}
		}
	}
	if !orderOps[op] && op != "=" {
		return
	}
	col, isTo, _ := dj.validity(l)
	if col == "" {
		col, isTo, _ = dj.validity(r)
		r = l
		op = flipped[op]
	}
	if col == "" || !isTo || op == "<" || op == "<=" {
		return
	}
	if r.HasLiteral && dj.dim.isCurrentValue(r.Literal) {
		dj.setCurrent(fmt.Sprintf("%s %s '%s'", dj.name(col), op, r.Literal))
		return
	}
	if op != "=" && dj.isNow(r) {
		dj.setCurrent(fmt.Sprintf("%s %s the current time", dj.name(col), op))
	}
}

// validity returns the validity column an operand keeps the order of
// (through casts, date conversions and COALESCE, coalesced is then set);
// col is "" when it keeps none of the dimension's validity columns.
func (dj *dimJoin) validity(op fact.Operand) (col string, isTo, coalesced bool) {
	for _, c := range op.OrderedBy {
		if !dj.isOwn(c.Qualifier) {
			continue
		}
		switch name := dj.join.Column(c.Name); {
		case name == "":
		case dj.dim.validFrom.has(name):
			return name, false, c.Coalesced
		case dj.dim.validTo.has(name):
			return name, true, c.Coalesced
		}
	}
	return "", false, false
}

// noteOtherValidity records the validity columns of another relation
// among cols, the other side of a comparison.
func (dj *dimJoin) noteOtherValidity(cols []fact.ColumnRef) {
	for _, c := range cols {
		if dj.isOwn(c.Qualifier) {
			continue
		}
		dj.otherFrom = dj.otherFrom || dj.dim.validFrom.has(c.Name)
		dj.otherTo = dj.otherTo || dj.dim.validTo.has(c.Name)
	}
}

// versionKey reports whether t equates a column of the dimension with a
// column of the other side that identifies one version: the history's own
// row id (dbt_scd_id, version_id) or the other side's reference to it
// (stripe_subscriptions_history_id = history.id). Such a join picks one
// version per row, whatever the validity columns say. A primary or
// surrogate key (*_pk, *_sk) is not taken for one: projects name their
// durable key so as often as a version's.
func (dj *dimJoin) versionKey(t fact.Term) bool {
	if t.Kind != fact.TermCompare || t.Op != "=" {
		return false
	}
	l, r := t.Operands[0].Column, t.Operands[1].Column
	if l == nil || r == nil {
		return false
	}
	own, other := *l, *r
	if !dj.isOwn(own.Qualifier) {
		own, other = other, own
	}
	if !dj.isOwn(own.Qualifier) || dj.isOwn(other.Qualifier) {
		return false
	}
	own.Name = dj.join.Column(own.Name)
	if versionIDs[own.Name] || versionIDs[other.Name] {
		return true
	}
	for _, suffix := range versionIDSuffixes {
		if strings.HasSuffix(own.Name, suffix) || strings.HasSuffix(other.Name, suffix) {
			return true
		}
	}
	rel := dj.join.Relation
	return len(rel.Parts) > 0 && other.Name == unversioned(strings.ToLower(rel.Parts[len(rel.Parts)-1]))+"_id"
}

var (
	// versionIDs name the row id of a history: one value per version.
	versionIDs = map[string]bool{"dbt_scd_id": true, "scd_id": true, "version_id": true, "history_id": true, "snapshot_id": true}
	// versionIDSuffixes end the names of references to a history's rows.
	versionIDSuffixes = []string{"_history_id", "_snapshot_id", "_version_id", "_scd_id"}
)

// unversioned drops a table version suffix: orders_history_v2 is
// orders_history.
func unversioned(name string) string {
	i := strings.LastIndex(name, "_v")
	if i < 0 || i+2 == len(name) {
		return name
	}
	for _, c := range name[i+2:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// columns reports whether cols hold a column of another relation, and one
// of the dimension's own.
func (dj *dimJoin) columns(cols []fact.ColumnRef) (other, own bool) {
	for _, c := range cols {
		if dj.isOwn(c.Qualifier) {
			own = true
		} else {
			other = true
		}
	}
	return other, own
}

// isOwn reports whether a column qualifier names the dimension; an
// unqualified column is its own only when nothing else is in the FROM.
func (dj *dimJoin) isOwn(qual string) bool {
	if qual == "" {
		return dj.lone
	}
	return strings.EqualFold(qual, dj.join.Alias)
}

// isNow reports whether an operand is the time the statement runs, with no
// column.
func (dj *dimJoin) isNow(op fact.Operand) bool {
	return len(op.Columns) == 0 && op.Now
}

// currentFlagNames are the columns that mark a dimension's current
// version, in the spellings measured in real projects.
var currentFlagNames = names{"is_current", "*_is_current", "is_current_version", "current_flag", "is_latest"}

func (dj *dimJoin) isFlag(op fact.Operand) bool {
	return op.Column != nil && dj.isOwn(op.Column.Qualifier) && currentFlagNames.has(dj.join.Column(op.Column.Name))
}

// name qualifies a column of the dimension the way the SQL likely does:
// in a subquery over the dimension alone, only when it has an alias.
func (dj *dimJoin) name(col string) string {
	if dj.lone && !dj.aliased() {
		return col
	}
	return dj.join.Alias + "." + col
}

func (dj *dimJoin) aliased() bool {
	rel := dj.join.Relation
	return len(rel.Parts) == 0 || !strings.EqualFold(rel.Parts[len(rel.Parts)-1], dj.join.Alias)
}

// label names the dimension, its alias or the WITH query it is joined
// through, and, when the SQL alone does not show it is type-2, what says
// so.
func (dj *dimJoin) label() string {
	rel := dj.join.Relation
	var notes []string
	switch {
	case len(dj.join.Via) > 0:
		notes = append(notes, fmt.Sprintf("through WITH query %q", dj.join.Via[0]))
	case dj.aliased():
		notes = append(notes, fmt.Sprintf("alias %q", dj.join.Alias))
	}
	if dj.dim.via != "" {
		notes = append(notes, dj.dim.via)
	}
	if len(notes) == 0 {
		return fmt.Sprintf("%q", rel.Name())
	}
	return fmt.Sprintf("%q (%s)", rel.Name(), strings.Join(notes, ", "))
}

// validityNames are the names a message shows for the two columns.
func (dj *dimJoin) validityNames() (from, to string) {
	from, to = dj.dim.pair(dj.usedFrom, dj.usedTo)
	return dj.name(from), dj.name(to)
}

// fix is the as-of join a message suggests; where current versions have
// a NULL end, the end is given a far-future value so they still match.
func (dj *dimJoin) fix() string {
	from, to := dj.dim.pair(dj.usedFrom, dj.usedTo)
	end := dj.name(to)
	if dj.dim.dropsCurrentRows(to) {
		end = fmt.Sprintf("COALESCE(%s, '9999-12-31')", end)
	}
	return fmt.Sprintf("<event time> >= %s AND <event time> < %s", dj.name(from), end)
}

var (
	orderOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true}
	flipped  = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
)

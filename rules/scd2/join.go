package scd2

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// dimJoin is one join to a type-2 dimension and what its predicates (the
// ONs of its FROM clause and its conjuncts of WHERE) do with the validity
// columns.
type dimJoin struct {
	file *rules.SQLFile
	st   *sqlparse.Statement
	join sqlparse.Join
	dim  dimension
	// lone is set for the only item of a FROM clause (a correlated
	// subquery), whose unqualified columns are its own.
	lone bool
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
		mayJoin := dims.mayJoin(string(f.Source.Content))
		for _, st := range f.Parsed.Statements {
			if tf := pass.Tokens(st); tf != nil {
				out = tokenJoins(out, f, st, tf, dims)
				continue
			}
			if st.Node == nil || !mayJoin {
				continue
			}
			// Most joins are to CTEs: the statement-wide maps are built
			// only for one that is not.
			var clauses map[int]*fromClause
			var refs map[string]map[string]bool
			writes := st.Writes()
			for _, j := range st.Joins() {
				if j.CTE || writesRelation(writes, j.Relation) {
					continue
				}
				if clauses == nil {
					clauses, refs = fromClauses(st)
				}
				var preds []*pg_query.Node
				lone, leading, scalar := false, false, false
				if c, ok := clauses[j.Offset]; ok {
					lone = !c.target && c.items == 1
					leading = !c.target && c.items > 1 && c.first == j.Offset
					scalar = lone && c.scalar
					for _, on := range c.ons {
						preds = append(preds, sqlparse.Conjuncts(on)...)
					}
				} else {
					preds = sqlparse.Conjuncts(j.On)
				}
				preds = append(preds, j.Where...)
				dj := &dimJoin{file: f, st: st, join: j, dim: dims.lookup(j.Relation), lone: lone, keepsRows: !j.Inner || scalar}
				out = dj.keep(out, preds, refs, leading)
			}
		}
	}
	return out
}

// tokenJoins reads the joins of a statement read from its tokens the way
// dimensionJoins reads those of a parse tree.
func tokenJoins(out []*dimJoin, f *rules.SQLFile, st *sqlparse.Statement, tf *sqlparse.TokenFacts, dims *dimensions) []*dimJoin {
	for _, tj := range tf.Joins {
		j := tj.Join
		if j.CTE || writesRelation(tf.Writes, j.Relation) {
			continue
		}
		c := tj.From
		lone := !c.Target && c.Items == 1
		leading := !c.Target && c.Items > 1 && c.First == j.Offset
		var preds []*pg_query.Node
		for _, cj := range c.Ons {
			if cj.Node != nil {
				preds = append(preds, cj.Node)
			}
		}
		preds = append(preds, j.Where...)
		dj := &dimJoin{file: f, st: st, join: j, dim: dims.lookup(j.Relation), lone: lone, keepsRows: !j.Inner || lone && c.Scalar, fromTokens: true, partial: tj.Partial}
		out = dj.keep(out, preds, tf.Columns, leading)
	}
	return out
}

// keep reads the join's predicates and adds it to out when it is a join to
// a type-2 dimension; leading is set for the first of several FROM items.
func (dj *dimJoin) keep(out []*dimJoin, preds []*pg_query.Node, refs map[string]map[string]bool, leading bool) []*dimJoin {
	if dj.lone && !dj.correlated() {
		return out
	}
	dj.read(preds, refs)
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

// writesRelation reports whether the statement writes rel: a statement
// that maintains a dimension reads its current rows on purpose.
func writesRelation(writes []sqlparse.Write, rel sqlname.Relation) bool {
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
	for _, c := range dj.join.Where {
		if other, _ := dj.columns(c); other {
			return true
		}
	}
	return false
}

// read classifies the predicates and the statement's use of the validity
// columns.
func (dj *dimJoin) read(preds []*pg_query.Node, refs map[string]map[string]bool) {
	own := union(refs[strings.ToLower(dj.join.Alias)])
	if dj.lone {
		for _, p := range dj.join.Where {
			own = union(own, columnRefs(p)[""])
		}
	}
	dj.usedFrom = firstUsed(dj.dim.validFrom, own)
	dj.usedTo = firstUsed(dj.dim.validTo, own)
	for _, p := range preds {
		dj.predicate(p)
		sqlparse.Walk(p, func(m proto.Message) bool {
			if t, ok := m.(*pg_query.NullTest); ok && t.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
				if col, isTo, coalesced := dj.validity(t.GetArg()); col != "" && isTo && !coalesced {
					dj.nullSafe = true
				}
			}
			return true
		})
	}
}

// predicate reads one conjunct.
func (dj *dimJoin) predicate(p *pg_query.Node) {
	switch x := p.GetNode().(type) {
	case *pg_query.Node_BoolExpr:
		// (r.ts < d.valid_to OR d.valid_to IS NULL) is still a bound; an
		// OR with anything else in it is not.
		if x.BoolExpr.GetBoolop() != pg_query.BoolExprType_OR_EXPR {
			return
		}
		var lower, upper []comparison
		for _, arm := range x.BoolExpr.GetArgs() {
			if t := arm.GetNullTest(); t != nil && t.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
				if col, isTo, _ := dj.validity(t.GetArg()); col != "" && isTo {
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
	case *pg_query.Node_AExpr:
		lo, up, pinned := dj.bounds(p)
		dj.lower, dj.upper = append(dj.lower, lo...), append(dj.upper, up...)
		dj.pinned = dj.pinned || pinned
		dj.currentComparison(x.AExpr)
	case *pg_query.Node_ColumnRef:
		if dj.isFlag(p) {
			dj.setCurrent(dj.name(dj.colName(p)))
		}
	case *pg_query.Node_BooleanTest:
		if t := x.BooleanTest; t.GetBooltesttype() == pg_query.BoolTestType_IS_TRUE && dj.isFlag(t.GetArg()) {
			dj.setCurrent(dj.name(dj.colName(t.GetArg())) + " IS TRUE")
		}
	case *pg_query.Node_NullTest:
		if t := x.NullTest; t.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
			if col, isTo, coalesced := dj.validity(t.GetArg()); col != "" && isTo && !coalesced {
				dj.setCurrent(dj.name(col) + " IS NULL")
			}
		}
	}
}

func (dj *dimJoin) setCurrent(desc string) {
	if dj.current == "" {
		dj.current = desc
	}
}

// bounds reads the comparisons of validity columns with the other side in
// p: valid_from or valid_to op an expression over another relation's
// columns, or r.ts BETWEEN valid_from AND valid_to. pinned is set for an
// equality instead.
func (dj *dimJoin) bounds(p *pg_query.Node) (lower, upper []comparison, pinned bool) {
	e := p.GetAExpr()
	add := func(col string, isTo bool, c comparison) {
		c.column = col
		if isTo {
			upper = append(upper, c)
		} else {
			lower = append(lower, c)
		}
	}
	switch e.GetKind() {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		op := opName(e)
		if !orderOps[op] && op != "=" {
			return nil, nil, false
		}
		l, r := e.GetLexpr(), e.GetRexpr()
		col, isTo, coalesced := dj.validity(l)
		if col == "" {
			col, isTo, coalesced = dj.validity(r)
			r = l
			op = flipped[op]
		}
		other, own := dj.columns(r)
		switch {
		case col == "" || !other || own:
		case op == "=":
			pinned = true
		default:
			add(col, isTo, comparison{op: op, coalesced: coalesced})
		}
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
		ends := e.GetRexpr().GetList().GetItems()
		if other, own := dj.columns(e.GetLexpr()); len(ends) != 2 || !other || own {
			return nil, nil, false
		}
		if col, isTo, coalesced := dj.validity(ends[0]); col != "" {
			add(col, isTo, comparison{op: "<=", between: true, coalesced: coalesced})
		}
		if col, isTo, coalesced := dj.validity(ends[1]); col != "" {
			add(col, isTo, comparison{op: ">=", between: true, coalesced: coalesced})
		}
	}
	return lower, upper, pinned
}

// currentComparison reads the comparisons that keep only the current
// version: is_current = true, valid_to = '9999-12-31' (or >= a far-future
// date, or the snapshot's dbt_valid_to_current), valid_to > CURRENT_DATE,
// CURRENT_DATE BETWEEN valid_from AND valid_to.
func (dj *dimJoin) currentComparison(e *pg_query.A_Expr) {
	if e.GetKind() == pg_query.A_Expr_Kind_AEXPR_BETWEEN {
		ends := e.GetRexpr().GetList().GetItems()
		if len(ends) == 2 && dj.isNow(e.GetLexpr()) {
			if col, isTo, _ := dj.validity(ends[1]); col != "" && isTo {
				from, _ := dj.validityNames()
				dj.setCurrent(fmt.Sprintf("the current time BETWEEN %s AND %s", from, dj.name(col)))
			}
		}
		return
	}
	if e.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP {
		return
	}
	op := opName(e)
	l, r := e.GetLexpr(), e.GetRexpr()
	if op == "=" {
		for _, side := range [][2]*pg_query.Node{{l, r}, {r, l}} {
			if dj.isFlag(side[0]) && truthy(side[1]) {
				dj.setCurrent(dj.name(dj.colName(side[0])) + " = " + constOrTrue(side[1]))
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
	if text, ok := literalText(r); ok && dj.dim.isCurrentValue(text) {
		dj.setCurrent(fmt.Sprintf("%s %s '%s'", dj.name(col), op, text))
		return
	}
	if op != "=" && dj.isNow(r) {
		dj.setCurrent(fmt.Sprintf("%s %s the current time", dj.name(col), op))
	}
}

// validity returns the validity column n is, looking through casts, date
// conversions and COALESCE (coalesced is then set); col is "" when n is
// not one of the dimension's validity columns.
func (dj *dimJoin) validity(n *pg_query.Node) (col string, isTo, coalesced bool) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return dj.validity(x.TypeCast.GetArg())
	case *pg_query.Node_CoalesceExpr:
		if args := x.CoalesceExpr.GetArgs(); len(args) > 0 {
			col, isTo, _ = dj.validity(args[0])
			return col, isTo, true
		}
	case *pg_query.Node_FuncCall:
		args := x.FuncCall.GetArgs()
		name := funcName(x.FuncCall)
		switch {
		case len(args) == 0:
		case coalesceFunctions[name]:
			col, isTo, _ = dj.validity(args[0])
			return col, isTo, true
		case dateConversions[name]:
			for _, a := range args {
				if col, isTo, coalesced = dj.validity(a); col != "" {
					return col, isTo, coalesced
				}
			}
		}
	case *pg_query.Node_ColumnRef:
		qual, name := columnName(x.ColumnRef)
		if !dj.isOwn(qual) {
			return "", false, false
		}
		switch {
		case slices.Contains(dj.dim.validFrom, name):
			return name, false, false
		case slices.Contains(dj.dim.validTo, name):
			return name, true, false
		}
	}
	return "", false, false
}

// columns reports whether n uses a column of another relation, and one of
// the dimension's own; subqueries are left out, their columns are theirs.
func (dj *dimJoin) columns(n *pg_query.Node) (other, own bool) {
	sqlparse.Walk(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			qual, col := columnName(x)
			switch {
			case col == "" || qual == "" && nowColumns[col]:
			case dj.isOwn(qual):
				own = true
			default:
				other = true
			}
		}
		return true
	})
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

// isNow reports whether n is the time the statement runs, with no column.
func (dj *dimJoin) isNow(n *pg_query.Node) bool {
	if other, own := dj.columns(n); other || own {
		return false
	}
	return len(sqlparse.NowCalls(dj.st, n)) > 0
}

// currentFlagNames are the columns that mark a dimension's current version.
var currentFlagNames = []string{"is_current", "current_flag", "is_latest"}

func (dj *dimJoin) isFlag(n *pg_query.Node) bool {
	c := n.GetColumnRef()
	if c == nil {
		return false
	}
	qual, col := columnName(c)
	return slices.Contains(currentFlagNames, col) && dj.isOwn(qual)
}

func (dj *dimJoin) colName(n *pg_query.Node) string {
	_, col := columnName(n.GetColumnRef())
	return col
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

// label names the dimension, its alias and, when the SQL alone does not
// show it is type-2, what says so.
func (dj *dimJoin) label() string {
	rel := dj.join.Relation
	var notes []string
	if dj.aliased() {
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

// fromClause is a FROM clause (or UPDATE ... FROM, DELETE ... USING).
type fromClause struct {
	ons   []*pg_query.Node
	items int
	// first is the offset of its first item when that is a relation, -1
	// otherwise.
	first int
	// target is set when its items are joined to a written relation besides.
	target bool
	// scalar is set for the FROM of a scalar subquery, which yields NULL
	// rather than dropping the outer row when nothing matches.
	scalar bool
}

// fromClauses maps the offset of every relation named in a FROM clause to
// that clause, and returns the statement's columnRefs from the same walk.
// sqlparse.Join keeps only the innermost ON of a relation, and validity
// bounds are often written in a later one.
func fromClauses(st *sqlparse.Statement) (map[int]*fromClause, map[string]map[string]bool) {
	out := map[int]*fromClause{}
	refs := map[string]map[string]bool{}
	add := func(items []*pg_query.Node, target, scalar bool) {
		c := &fromClause{first: -1, target: target, scalar: scalar}
		var visit func(*pg_query.Node)
		visit = func(n *pg_query.Node) {
			switch x := n.GetNode().(type) {
			case *pg_query.Node_JoinExpr:
				if q := x.JoinExpr.GetQuals(); q != nil {
					c.ons = append(c.ons, q)
				}
				visit(x.JoinExpr.GetLarg())
				visit(x.JoinExpr.GetRarg())
			case *pg_query.Node_RangeVar:
				at := st.Orig(x.RangeVar.GetLocation())
				if c.items == 0 {
					c.first = at
				}
				c.items++
				out[at] = c
			default:
				c.items++
			}
		}
		for _, it := range items {
			visit(it)
		}
	}
	// Parents come before children, so a scalar subquery is known before
	// its SELECT is reached.
	scalar := map[*pg_query.SelectStmt]bool{}
	sqlparse.Walk(st.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.ColumnRef:
			addColumnRef(refs, x)
		case *pg_query.SubLink:
			if t := x.GetSubLinkType(); t == pg_query.SubLinkType_EXPR_SUBLINK || t == pg_query.SubLinkType_ARRAY_SUBLINK {
				scalar[x.GetSubselect().GetSelectStmt()] = true
			}
		case *pg_query.SelectStmt:
			add(x.GetFromClause(), false, scalar[x])
		case *pg_query.UpdateStmt:
			add(x.GetFromClause(), true, false)
		case *pg_query.DeleteStmt:
			add(x.GetUsingClause(), true, false)
		}
		return true
	})
	return out, refs
}

// columnRefs returns the columns n uses, by qualifier (its last part, ""
// for none) and name, all in lower case.
func columnRefs(n proto.Message) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	sqlparse.Walk(n, func(m proto.Message) bool {
		if c, ok := m.(*pg_query.ColumnRef); ok {
			addColumnRef(out, c)
		}
		return true
	})
	return out
}

func addColumnRef(refs map[string]map[string]bool, c *pg_query.ColumnRef) {
	if qual, col := columnName(c); col != "" {
		if refs[qual] == nil {
			refs[qual] = map[string]bool{}
		}
		refs[qual][col] = true
	}
}

func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			out[k] = true
		}
	}
	return out
}

func firstUsed(names []string, used map[string]bool) string {
	for _, n := range names {
		if used[n] {
			return n
		}
	}
	return ""
}

// columnName splits a column reference into the last part of its
// qualifier and the column, both in lower case; col is "" for t.*.
func columnName(c *pg_query.ColumnRef) (qual, col string) {
	fields := c.GetFields()
	if len(fields) == 0 {
		return "", ""
	}
	col = strings.ToLower(fields[len(fields)-1].GetString_().GetSval())
	if len(fields) > 1 {
		qual = strings.ToLower(fields[len(fields)-2].GetString_().GetSval())
	}
	return qual, col
}

var (
	orderOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true}
	flipped  = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
	// coalesceFunctions give a NULL a value; COALESCE itself parses as
	// CoalesceExpr, the warehouses' spellings as calls.
	coalesceFunctions = map[string]bool{"coalesce": true, "ifnull": true, "nvl": true, "isnull": true, "zeroifnull": true}
	// dateConversions keep a column's order, so a bound on date(col)
	// bounds col.
	dateConversions = map[string]bool{"date": true, "to_date": true, "date_trunc": true, "trunc": true, "timestamp": true, "to_timestamp": true, "datetime": true, "timestamp_trunc": true, "datetime_trunc": true}
	// nowColumns are Oracle-style names of the current time that parse as
	// columns.
	nowColumns = map[string]bool{"sysdate": true, "systimestamp": true}
)

func opName(e *pg_query.A_Expr) string {
	names := e.GetName()
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func funcName(f *pg_query.FuncCall) string {
	names := f.GetFuncname()
	if len(names) == 0 {
		return ""
	}
	return strings.ToLower(names[len(names)-1].GetString_().GetSval())
}

// literalText returns the text of a date, timestamp or string constant:
// '9999-12-31', DATE '9999-12-31', '9999-12-31'::timestamp,
// to_date('9999-12-31').
func literalText(n *pg_query.Node) (string, bool) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return literalText(x.TypeCast.GetArg())
	case *pg_query.Node_AConst:
		if s := x.AConst.GetSval(); s != nil {
			return s.GetSval(), true
		}
	case *pg_query.Node_FuncCall:
		if args := x.FuncCall.GetArgs(); len(args) > 0 && dateConversions[funcName(x.FuncCall)] {
			return literalText(args[0])
		}
	}
	return "", false
}

// truthy reports whether n is a constant that sets a flag: TRUE, 1, 'Y'.
func truthy(n *pg_query.Node) bool {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().GetArg()
	}
	c := n.GetAConst()
	switch {
	case c == nil:
		return false
	case c.GetBoolval() != nil:
		return c.GetBoolval().GetBoolval()
	case c.GetIval() != nil:
		return c.GetIval().GetIval() == 1
	case c.GetSval() != nil:
		switch strings.ToLower(c.GetSval().GetSval()) {
		case "y", "yes", "t", "true", "1":
			return true
		}
	}
	return false
}

// constOrTrue spells a truthy constant for a message.
func constOrTrue(n *pg_query.Node) string {
	if text, ok := literalText(n); ok {
		return "'" + text + "'"
	}
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().GetArg()
	}
	if n.GetAConst().GetIval() != nil {
		return "1"
	}
	return "TRUE"
}

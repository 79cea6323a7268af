package sqlparse

import (
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// What a statement says about the relation it builds, for rules that
// judge a relation by how it is defined.

// DayBeforeNext returns the output columns, in lower case, of the query
// the statement builds a relation from (CREATE VIEW, CREATE TABLE ... AS,
// INSERT ... SELECT, a dbt model's SELECT) that end each version the day
// before the next one starts: LEAD(d) OVER (...) - 1, DATE_SUB(LEAD(d) OVER
// (...), INTERVAL 1 DAY), DATEADD(day, -1, LEAD(d) OVER (...)), also
// inside COALESCE or IFNULL (which give the last version a far end) and
// casts. A validity interval ending in such a column includes its last
// day, so BETWEEN valid_from AND valid_to is the right join.
func (s *Statement) DayBeforeNext() []string {
	sel := s.definingQuery()
	for sel.GetOp() != pg_query.SetOperation_SETOP_NONE && sel.GetLarg() != nil {
		sel = sel.GetLarg()
	}
	var out []string
	for _, t := range sel.GetTargetList() {
		rt := t.GetResTarget()
		if name := strings.ToLower(rt.GetName()); name != "" && endsDayBeforeNext(rt.GetVal()) {
			out = append(out, name)
		}
	}
	return out
}

// Defines returns the relation the statement builds from its query: the
// view of CREATE VIEW, else what it writes (CREATE TABLE ... AS, INSERT).
// ok is false when it builds none.
func (s *Statement) Defines() (rel sqlname.Relation, ok bool) {
	if v := s.Node.GetViewStmt(); v != nil {
		return fact.RelationOf(&s.Source, v.GetView()), true
	}
	for _, w := range s.Writes() {
		if len(w.Target.Parts) > 0 {
			return w.Target, true
		}
	}
	return sqlname.Relation{}, false
}

// UnionsRelations reports whether the query the statement builds its
// relation from is a UNION of queries that read different relations. Each
// row of such a relation comes from one branch, and a reader filtering on
// a column that tells the branches apart (an app, a channel) reads the
// rows of some sources and none of the others. A branch reading nothing
// (literals) does not count.
func (s *Statement) UnionsRelations() bool {
	sel := s.definingQuery()
	if sel.GetOp() != pg_query.SetOperation_SETOP_UNION {
		return false
	}
	first := ""
	for _, branch := range unionBranches(sel, nil) {
		sources := branchSources(s, branch)
		switch {
		case sources == "":
		case first == "":
			first = sources
		case sources != first:
			return true
		}
	}
	return false
}

// unionBranches appends the queries a UNION combines to out, nested
// UNIONs flattened; an INTERSECT or EXCEPT is one branch.
func unionBranches(sel *pg_query.SelectStmt, out []*pg_query.SelectStmt) []*pg_query.SelectStmt {
	if sel.GetOp() != pg_query.SetOperation_SETOP_UNION {
		return append(out, sel)
	}
	return unionBranches(sel.GetRarg(), unionBranches(sel.GetLarg(), out))
}

// branchSources names the relations a query reads, sorted and joined, as
// a key telling two branches' sources apart.
func branchSources(s *Statement, sel *pg_query.SelectStmt) string {
	var names []string
	tree.Inspect(sel, func(m proto.Message, sc *tree.Scope) bool {
		if rv, ok := m.(*pg_query.RangeVar); ok && !sc.IsCTE(rv) {
			names = append(names, strings.ToLower(relationKey(fact.RelationOf(&s.Source, rv))))
		}
		return true
	})
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ",")
}

// definingQuery is the query a statement builds its relation from.
func (s *Statement) definingQuery() *pg_query.SelectStmt {
	if v := s.Node.GetViewStmt(); v != nil {
		return v.GetQuery().GetSelectStmt()
	}
	return s.Select()
}

func endsDayBeforeNext(n *pg_query.Node) bool {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return endsDayBeforeNext(x.TypeCast.GetArg())
	case *pg_query.Node_CoalesceExpr:
		args := x.CoalesceExpr.GetArgs()
		return len(args) > 0 && endsDayBeforeNext(args[0])
	case *pg_query.Node_AExpr:
		e := x.AExpr
		return e.GetKind() == pg_query.A_Expr_Kind_AEXPR_OP && tree.OpName(e) == "-" && isLead(e.GetLexpr()) && isOneDay(e.GetRexpr())
	case *pg_query.Node_FuncCall:
		args := x.FuncCall.GetArgs()
		switch name := tree.FuncName(x.FuncCall); {
		case fact.CoalesceFunctions[name]:
			return len(args) > 0 && endsDayBeforeNext(args[0])
		case name == "date_sub" || name == "datetime_sub":
			return len(args) == 2 && isLead(args[0]) && isOneDay(args[1])
		case name == "dateadd":
			// Snowflake's DATEADD(day, -1, d), the unit a word or a string.
			if len(args) != 3 || !isDayUnit(args[0]) {
				return false
			}
			v, ok := intConst(args[1])
			return ok && v == -1 && isLead(args[2])
		}
	}
	return false
}

// isDayUnit reports whether a DATEADD unit is the day: day, 'day', days.
func isDayUnit(n *pg_query.Node) bool {
	unit, ok := constText(n)
	if !ok {
		var qual string
		if qual, unit = plainColumn(n); qual != "" {
			return false
		}
	}
	unit = strings.ToLower(unit)
	return unit == "day" || unit == "days" || unit == "d"
}

// isLead reports whether n is LEAD(...) OVER (...), through casts.
func isLead(n *pg_query.Node) bool {
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().GetArg()
	}
	f := n.GetFuncCall()
	return f != nil && f.GetOver() != nil && tree.FuncName(f) == "lead"
}

// isOneDay reports whether n is the integer 1 (a date minus 1 is the day
// before) or an interval of one day.
func isOneDay(n *pg_query.Node) bool {
	if v, ok := intConst(n); ok {
		return v == 1
	}
	text, ok := constText(n)
	if !ok {
		return false
	}
	switch strings.ToLower(strings.Join(strings.Fields(text), " ")) {
	case "1 day", "1 days", "1":
		return true
	}
	return false
}

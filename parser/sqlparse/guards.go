package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// How a statement that appends keeps a re-run from adding its rows again.

// ExcludesExisting reports whether the statement's query leaves out the
// rows rel already holds, so that running it twice inserts nothing twice:
// a strict high-watermark (col > (SELECT MAX(c) FROM rel)), NOT IN or NOT
// EXISTS over a query of rel, or an anti-join (LEFT JOIN rel r ... WHERE
// r.col IS NULL). A watermark with >= re-reads the boundary rows and does
// not count.
func (s *Statement) ExcludesExisting(rel sqlname.Relation) bool {
	if s.Node == nil || len(rel.Parts) == 0 {
		return false
	}
	reads := func(n *pg_query.Node) bool { return s.queryReads(n, rel) }
	nullTested := map[string]bool{}
	var antiJoined []string
	found := false
	Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.A_Expr:
			if x.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP {
				break
			}
			op, l, r := opName(x), x.GetLexpr(), x.GetRexpr()
			if op == ">" && isMaxOf(r, reads) || op == "<" && isMaxOf(l, reads) {
				found = true
			}
		case *pg_query.BoolExpr:
			if x.GetBoolop() != pg_query.BoolExprType_NOT_EXPR || len(x.GetArgs()) != 1 {
				break
			}
			if sl := x.GetArgs()[0].GetSubLink(); sl != nil && reads(sl.GetSubselect()) {
				switch sl.GetSubLinkType() {
				case pg_query.SubLinkType_EXISTS_SUBLINK, pg_query.SubLinkType_ANY_SUBLINK:
					found = true
				}
			}
		case *pg_query.SubLink:
			// x NOT IN (SELECT ...) parses as <> ALL.
			if x.GetSubLinkType() == pg_query.SubLinkType_ALL_SUBLINK && reads(x.GetSubselect()) {
				for _, n := range x.GetOperName() {
					if n.GetString_().GetSval() == "<>" {
						found = true
					}
				}
			}
		case *pg_query.JoinExpr:
			if rv := x.GetRarg().GetRangeVar(); rv != nil && x.GetJointype() == pg_query.JoinType_JOIN_LEFT && relationOf(s, rv).Matches(rel) {
				antiJoined = append(antiJoined, strings.ToLower(qualifier(rv)))
			}
		case *pg_query.NullTest:
			if x.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
				if c := x.GetArg().GetColumnRef(); c != nil {
					nullTested[refOf(c).Qualifier] = true
				}
			}
		}
		return !found
	})
	for _, alias := range antiJoined {
		found = found || nullTested[alias]
	}
	return found
}

// queryReads reports whether the FROM of the query n reads rel.
func (s *Statement) queryReads(n *pg_query.Node, rel sqlname.Relation) bool {
	for _, item := range n.GetSelectStmt().GetFromClause() {
		if rv := item.GetRangeVar(); rv != nil && relationOf(s, rv).Matches(rel) {
			return true
		}
	}
	return false
}

// isMaxOf reports whether n is a scalar subquery SELECT MAX(...) over a
// query that reads reads, through casts and COALESCE.
func isMaxOf(n *pg_query.Node, reads func(*pg_query.Node) bool) bool {
	for {
		switch x := n.GetNode().(type) {
		case *pg_query.Node_TypeCast:
			n = x.TypeCast.GetArg()
			continue
		case *pg_query.Node_CoalesceExpr:
			if args := x.CoalesceExpr.GetArgs(); len(args) > 0 {
				n = args[0]
				continue
			}
		case *pg_query.Node_SubLink:
			sl := x.SubLink
			if sl.GetSubLinkType() != pg_query.SubLinkType_EXPR_SUBLINK || !reads(sl.GetSubselect()) {
				return false
			}
			targets := sl.GetSubselect().GetSelectStmt().GetTargetList()
			if len(targets) != 1 {
				return false
			}
			val := targets[0].GetResTarget().GetVal()
			for val.GetTypeCast() != nil {
				val = val.GetTypeCast().GetArg()
			}
			if c := val.GetCoalesceExpr(); c != nil && len(c.GetArgs()) > 0 {
				val = c.GetArgs()[0]
			}
			f := val.GetFuncCall()
			return f != nil && funcName(f) == "max"
		}
		return false
	}
}

// InsertsParameters reports whether the statement is an INSERT ... VALUES
// whose values include a bind parameter or a procedure's variable (:name,
// @name): it writes the row it is called with, a log or audit entry, not
// rows computed from a source that a re-run would compute again.
func (s *Statement) InsertsParameters() bool {
	ins := s.Node.GetInsertStmt()
	values := ins.GetSelectStmt().GetSelectStmt().GetValuesLists()
	if ins == nil || len(values) == 0 {
		return false
	}
	for _, list := range values {
		for _, v := range list.GetList().GetItems() {
			if c := v.GetColumnRef(); c != nil {
				if name := refOf(c).Name; strings.HasPrefix(name, ":") || strings.HasPrefix(name, "@") {
					return true
				}
			}
		}
	}
	return false
}

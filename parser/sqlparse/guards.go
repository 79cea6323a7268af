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
// a strict high-watermark (col > (SELECT MAX(c) FROM rel), or col > m.c
// joined to a WITH query m that selects MAX(c) FROM rel), NOT IN or NOT
// EXISTS over a query of rel, or an anti-join (LEFT JOIN rel r ... WHERE
// r.col IS NULL). A WITH query that selects from rel stands for it. A
// watermark with >= re-reads the boundary rows and does not count.
func (s *Statement) ExcludesExisting(rel sqlname.Relation) bool {
	if s.Node == nil || len(rel.Parts) == 0 {
		return false
	}
	g := s.existingRows(rel)
	nullTested := map[string]bool{}
	var antiJoined []string
	// A comparison in the ON of an outer join keeps the rows it fails.
	outerOn := map[*pg_query.A_Expr]bool{}
	found := false
	Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.A_Expr:
			if x.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP || outerOn[x] {
				break
			}
			op, l, r := opName(x), x.GetLexpr(), x.GetRexpr()
			if op == ">" && g.isMax(r) || op == "<" && g.isMax(l) {
				found = true
			}
		case *pg_query.BoolExpr:
			if x.GetBoolop() != pg_query.BoolExprType_NOT_EXPR || len(x.GetArgs()) != 1 {
				break
			}
			if sl := x.GetArgs()[0].GetSubLink(); sl != nil && g.reads(sl.GetSubselect()) {
				switch sl.GetSubLinkType() {
				case pg_query.SubLinkType_EXISTS_SUBLINK, pg_query.SubLinkType_ANY_SUBLINK:
					found = true
				}
			}
		case *pg_query.SubLink:
			// x NOT IN (SELECT ...) parses as <> ALL.
			if x.GetSubLinkType() == pg_query.SubLinkType_ALL_SUBLINK && g.reads(x.GetSubselect()) {
				for _, n := range x.GetOperName() {
					if n.GetString_().GetSval() == "<>" {
						found = true
					}
				}
			}
		case *pg_query.JoinExpr:
			if rv := x.GetRarg().GetRangeVar(); rv != nil && x.GetJointype() == pg_query.JoinType_JOIN_LEFT && g.names(rv) {
				antiJoined = append(antiJoined, strings.ToLower(qualifier(rv)))
			}
			if x.GetJointype() != pg_query.JoinType_JOIN_INNER {
				Walk(x.GetQuals(), func(m proto.Message) bool {
					if e, ok := m.(*pg_query.A_Expr); ok {
						outerOn[e] = true
					}
					return true
				})
			}
		case *pg_query.NullTest:
			if x.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
				if c := x.GetArg().GetColumnRef(); c != nil {
					nullTested[strings.ToLower(refOf(c).Qualifier)] = true
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

// existingRows knows which relations of a statement stand for the rows a
// relation already holds: the relation, the WITH queries that select from
// it, and among those the ones that select only its MAX(...).
type existingRows struct {
	s   *Statement
	rel sqlname.Relation
	// derived are the WITH queries reading rel, by name in lower case;
	// maxOf those whose one column is MAX(...) of it.
	derived, maxOf map[string]bool
	// maxAliases are the names under which the statement joins a maxOf
	// query.
	maxAliases map[string]bool
}

func (s *Statement) existingRows(rel sqlname.Relation) *existingRows {
	g := &existingRows{s: s, rel: rel, derived: map[string]bool{}, maxOf: map[string]bool{}, maxAliases: map[string]bool{}}
	var ctes []*pg_query.CommonTableExpr
	Walk(s.Node, func(m proto.Message) bool {
		if c, ok := m.(*pg_query.CommonTableExpr); ok {
			ctes = append(ctes, c)
		}
		return true
	})
	// A WITH query may read another that reads rel: repeat until no new
	// one is found, at most once per query.
	for range ctes {
		grew := false
		for _, c := range ctes {
			name := strings.ToLower(c.GetCtename())
			if !g.derived[name] && g.reads(c.GetCtequery()) {
				g.derived[name], grew = true, true
				g.maxOf[name] = selectsOnlyMax(c.GetCtequery())
			}
		}
		if !grew {
			break
		}
	}
	if len(g.maxOf) > 0 {
		Walk(s.Node, func(m proto.Message) bool {
			if rv, ok := m.(*pg_query.RangeVar); ok && rv.GetSchemaname() == "" && g.maxOf[strings.ToLower(rv.GetRelname())] {
				g.maxAliases[strings.ToLower(qualifier(rv))] = true
			}
			return true
		})
	}
	return g
}

// names reports whether rv names rel or a WITH query derived from it.
func (g *existingRows) names(rv *pg_query.RangeVar) bool {
	if rv.GetSchemaname() == "" && rv.GetCatalogname() == "" && g.derived[strings.ToLower(rv.GetRelname())] {
		return true
	}
	return relationOf(g.s, rv).Matches(g.rel)
}

// reads reports whether the FROM of the query n, its joins included,
// reads rel or a WITH query derived from it.
func (g *existingRows) reads(n *pg_query.Node) bool {
	var inItem func(item *pg_query.Node) bool
	inItem = func(item *pg_query.Node) bool {
		switch x := item.GetNode().(type) {
		case *pg_query.Node_RangeVar:
			return g.names(x.RangeVar)
		case *pg_query.Node_JoinExpr:
			return inItem(x.JoinExpr.GetLarg()) || inItem(x.JoinExpr.GetRarg())
		}
		return false
	}
	for _, item := range n.GetSelectStmt().GetFromClause() {
		if inItem(item) {
			return true
		}
	}
	return false
}

// isMax reports whether n is the greatest value rel holds: a scalar
// subquery SELECT MAX(...) over it, or a column of a joined WITH query
// that selects only that, through casts and COALESCE.
func (g *existingRows) isMax(n *pg_query.Node) bool {
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
		case *pg_query.Node_ColumnRef:
			q := strings.ToLower(refOf(x.ColumnRef).Qualifier)
			return q != "" && g.maxAliases[q]
		case *pg_query.Node_SubLink:
			sl := x.SubLink
			return sl.GetSubLinkType() == pg_query.SubLinkType_EXPR_SUBLINK && g.reads(sl.GetSubselect()) && selectsOnlyMax(sl.GetSubselect())
		}
		return false
	}
}

// selectsOnlyMax reports whether the query's one column is MAX(...),
// through casts and COALESCE; a grouping column beside it (one maximum
// per source) is allowed.
func selectsOnlyMax(n *pg_query.Node) bool {
	sel := n.GetSelectStmt()
	maxes := 0
	for _, t := range sel.GetTargetList() {
		val := t.GetResTarget().GetVal()
		for val.GetTypeCast() != nil {
			val = val.GetTypeCast().GetArg()
		}
		if c := val.GetCoalesceExpr(); c != nil && len(c.GetArgs()) > 0 {
			val = c.GetArgs()[0]
		}
		switch f := val.GetFuncCall(); {
		case f != nil && funcName(f) == "max":
			maxes++
		case val.GetColumnRef() != nil && len(sel.GetGroupClause()) > 0:
		default:
			return false
		}
	}
	return maxes == 1
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

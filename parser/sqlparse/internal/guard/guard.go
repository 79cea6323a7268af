// Package guard finds how a statement's query keeps out the rows the
// relation it writes already holds, for both readers of a statement: the
// parse tree's and, on the parts that parse on their own, the tokens'.
package guard

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Guards walks the conditions under n for the guards against g's
// relation; antiJoined are the aliases under which n's query left-joins
// it, and comparisons in outerOn do not count.
func (g *Rows) Guards(n proto.Message, outerOn map[*pg_query.A_Expr]bool, antiJoined []string) []fact.GuardKind {
	var out []fact.GuardKind
	nullTested := map[string]bool{}
	tree.Walk(n, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.A_Expr:
			if x.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP || outerOn[x] {
				break
			}
			switch op, l, r := tree.OpName(x), x.GetLexpr(), x.GetRexpr(); {
			case op == ">" && g.isMax(r) || op == "<" && g.isMax(l):
				out = append(out, fact.GuardWatermark)
			case op == ">=" && g.isMax(r) || op == "<=" && g.isMax(l):
				out = append(out, fact.GuardInclusiveWatermark)
			}
		case *pg_query.BoolExpr:
			if x.GetBoolop() != pg_query.BoolExprType_NOT_EXPR || len(x.GetArgs()) != 1 {
				break
			}
			if sl := x.GetArgs()[0].GetSubLink(); sl != nil && g.reads(sl.GetSubselect()) {
				switch sl.GetSubLinkType() {
				case pg_query.SubLinkType_EXISTS_SUBLINK:
					out = append(out, fact.GuardNotExists)
				case pg_query.SubLinkType_ANY_SUBLINK:
					out = append(out, fact.GuardNotIn)
				}
			}
		case *pg_query.SubLink:
			// x NOT IN (SELECT ...) parses as <> ALL.
			if x.GetSubLinkType() == pg_query.SubLinkType_ALL_SUBLINK && g.reads(x.GetSubselect()) {
				for _, n := range x.GetOperName() {
					if n.GetString_().GetSval() == "<>" {
						out = append(out, fact.GuardNotIn)
					}
				}
			}
		case *pg_query.NullTest:
			if x.GetNulltesttype() == pg_query.NullTestType_IS_NULL {
				if c := x.GetArg().GetColumnRef(); c != nil {
					nullTested[strings.ToLower(fact.RefOf(c).Qualifier)] = true
				}
			}
		}
		return true
	})
	for _, alias := range antiJoined {
		if nullTested[alias] {
			out = append(out, fact.GuardAntiJoin)
			break
		}
	}
	return out
}

// Rows knows which relations of a statement stand for the rows a
// relation already holds: the relation, the WITH queries that select from
// it, and among those the ones that select only its MAX(...).
type Rows struct {
	src *fact.Source
	rel sqlname.Relation
	// Derived are the WITH queries reading rel, by name in lower case;
	// MaxOf those whose one column is MAX(...) of it.
	Derived, MaxOf map[string]bool
	// MaxAliases are the names under which the statement joins a maxOf
	// query.
	MaxAliases map[string]bool
}

// WithQuery is a WITH query by its name in lower case and its query.
type WithQuery struct {
	Name  string
	Query *pg_query.Node
}

// Through finds which of the WITH queries stand for rel.
func Through(s *fact.Source, rel sqlname.Relation, withs []WithQuery) *Rows {
	g := &Rows{src: s, rel: rel, Derived: map[string]bool{}, MaxOf: map[string]bool{}, MaxAliases: map[string]bool{}}
	// A WITH query may read another that reads rel: repeat until no new
	// one is found, at most once per query.
	for range withs {
		grew := false
		for _, w := range withs {
			if !g.Derived[w.Name] && g.reads(w.Query) {
				g.Derived[w.Name], grew = true, true
				g.MaxOf[w.Name] = selectsOnlyMax(w.Query)
			}
		}
		if !grew {
			break
		}
	}
	return g
}

// Names reports whether rv names rel or a WITH query derived from it.
func (g *Rows) Names(rv *pg_query.RangeVar) bool {
	if rv.GetSchemaname() == "" && rv.GetCatalogname() == "" && g.Derived[strings.ToLower(rv.GetRelname())] {
		return true
	}
	return fact.RelationOf(g.src, rv).Matches(g.rel)
}

// reads reports whether the FROM of the query n, its joins included,
// reads rel or a WITH query derived from it.
func (g *Rows) reads(n *pg_query.Node) bool {
	var inItem func(item *pg_query.Node) bool
	inItem = func(item *pg_query.Node) bool {
		switch x := item.GetNode().(type) {
		case *pg_query.Node_RangeVar:
			return g.Names(x.RangeVar)
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
func (g *Rows) isMax(n *pg_query.Node) bool {
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
			q := strings.ToLower(fact.RefOf(x.ColumnRef).Qualifier)
			return q != "" && g.MaxAliases[q]
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
		case f != nil && tree.FuncName(f) == "max":
			maxes++
		case val.GetColumnRef() != nil && len(sel.GetGroupClause()) > 0:
		default:
			return false
		}
	}
	return maxes == 1
}

package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/guard"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/tokenread"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// How a statement that appends keeps a re-run from adding its rows again.

// Guards lists how the statement's query keeps out the rows rel already
// holds, in the order found, the same whichever reader read it: from the
// parse tree, or for a statement the parser rejected, from its conditions
// that parse on their own, its WITH queries and its joins. A WITH query
// that selects from rel stands for it. A comparison in the ON of an
// outer join keeps the rows it fails, and is no guard.
func (s *Statement) Guards(rel sqlname.Relation) []fact.GuardKind {
	if len(rel.Parts) == 0 {
		return nil
	}
	if s.Node != nil {
		return s.treeGuards(rel)
	}
	if s.Text == "" {
		return nil
	}
	return tokenread.Guards(&s.Source, s.TokenFacts(), rel)
}

// ExcludesExisting reports whether the statement's query leaves out the
// rows rel already holds, so that running it twice inserts nothing twice:
// a guard other than an inclusive watermark (Guards).
func (s *Statement) ExcludesExisting(rel sqlname.Relation) bool {
	for _, k := range s.Guards(rel) {
		if k.Excludes() {
			return true
		}
	}
	return false
}

func (s *Statement) treeGuards(rel sqlname.Relation) []fact.GuardKind {
	g := s.existingRows(rel, s.Node)
	var antiJoined []string
	// A comparison in the ON of an outer join keeps the rows it fails.
	outerOn := map[*pg_query.A_Expr]bool{}
	tree.Walk(s.Node, func(m proto.Message) bool {
		if x, ok := m.(*pg_query.JoinExpr); ok {
			if rv := x.GetRarg().GetRangeVar(); rv != nil && x.GetJointype() == pg_query.JoinType_JOIN_LEFT && g.Names(rv) {
				antiJoined = append(antiJoined, strings.ToLower(qualifier(rv)))
			}
			if x.GetJointype() != pg_query.JoinType_JOIN_INNER {
				tree.Walk(x.GetQuals(), func(m proto.Message) bool {
					if e, ok := m.(*pg_query.A_Expr); ok {
						outerOn[e] = true
					}
					return true
				})
			}
		}
		return true
	})
	return g.Guards(s.Node, outerOn, antiJoined)
}

func (s *Statement) existingRows(rel sqlname.Relation, root *pg_query.Node) *guard.Rows {
	var withs []guard.WithQuery
	tree.Walk(root, func(m proto.Message) bool {
		if c, ok := m.(*pg_query.CommonTableExpr); ok {
			withs = append(withs, guard.WithQuery{Name: strings.ToLower(c.GetCtename()), Query: c.GetCtequery()})
		}
		return true
	})
	g := guard.Through(&s.Source, rel, withs)
	if len(g.MaxOf) > 0 {
		tree.Walk(root, func(m proto.Message) bool {
			if rv, ok := m.(*pg_query.RangeVar); ok && rv.GetSchemaname() == "" && g.MaxOf[strings.ToLower(rv.GetRelname())] {
				g.MaxAliases[strings.ToLower(qualifier(rv))] = true
			}
			return true
		})
	}
	return g
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
				if name := fact.RefOf(c).Name; strings.HasPrefix(name, ":") || strings.HasPrefix(name, "@") {
					return true
				}
			}
		}
	}
	return false
}

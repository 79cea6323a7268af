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
	key := strings.Join(rel.Parts, "\x00")
	s.facts.guardsMu.Lock()
	defer s.facts.guardsMu.Unlock()
	for _, g := range s.facts.guards {
		if g.rel == key {
			return g.kinds
		}
	}
	var kinds []fact.GuardKind
	switch {
	case s.Node != nil:
		kinds = s.treeGuards(rel)
	case s.Text != "":
		kinds = tokenread.Guards(&s.Source, s.TokenFacts(), rel)
	}
	s.facts.guards = append(s.facts.guards, guardsOf{key, kinds})
	return kinds
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
	// One walk gathers what the guards are read from: the WITH queries,
	// the relations left-joined (an anti-join once they turn out to name
	// rel's rows), and the comparisons in the ON of an outer join, which
	// keeps the rows they fail.
	var withs []guard.WithQuery
	var leftJoined []*pg_query.RangeVar
	outerOn := map[*pg_query.A_Expr]bool{}
	tree.Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.CommonTableExpr:
			withs = append(withs, guard.WithQuery{Name: strings.ToLower(x.GetCtename()), Query: x.GetCtequery()})
		case *pg_query.JoinExpr:
			if rv := x.GetRarg().GetRangeVar(); rv != nil && x.GetJointype() == pg_query.JoinType_JOIN_LEFT {
				leftJoined = append(leftJoined, rv)
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
	g := guard.Through(&s.Source, rel, withs)
	if len(g.MaxOf) > 0 {
		tree.Walk(s.Node, func(m proto.Message) bool {
			if rv, ok := m.(*pg_query.RangeVar); ok && rv.GetSchemaname() == "" && g.MaxOf[strings.ToLower(rv.GetRelname())] {
				g.MaxAliases[strings.ToLower(qualifier(rv))] = true
			}
			return true
		})
	}
	var antiJoined []string
	for _, rv := range leftJoined {
		if g.Names(rv) {
			antiJoined = append(antiJoined, strings.ToLower(qualifier(rv)))
		}
	}
	return g.Guards(s.Node, outerOn, antiJoined)
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

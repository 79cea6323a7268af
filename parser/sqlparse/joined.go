package sqlparse

import (
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Joined returns what the statement's parse tree joins.
func (s *Statement) Joined() fact.Joined {
	s.facts.joinedOnce.Do(func() { s.facts.joined = s.joined() })
	return s.facts.joined
}

func (s *Statement) joined() fact.Joined {
	var out fact.Joined
	var clauses map[int]*treeFrom
	for _, j := range s.Joins() {
		if j.CTE && j.Through == nil {
			continue
		}
		if clauses == nil {
			clauses, out.Columns = s.fromClauses()
		}
		c, ok := clauses[j.Offset]
		if !ok {
			out.Relations = append(out.Relations, fact.NewJoinedRelation(j, fact.FromClause{First: -1}, fact.Conjuncts(j.On)))
			continue
		}
		var on []*pg_query.Node
		for _, n := range c.ons {
			on = append(on, fact.Conjuncts(n)...)
		}
		out.Relations = append(out.Relations, fact.NewJoinedRelation(j, c.FromClause, on))
	}
	return out
}

// treeFrom is a FROM clause of a parse tree with its ONs.
type treeFrom struct {
	fact.FromClause
	ons []*pg_query.Node
}

// fromClauses maps the offset of every relation named in a FROM clause to
// that clause, and returns the statement's column references from the
// same walk.
func (s *Statement) fromClauses() (map[int]*treeFrom, map[string]map[string]bool) {
	out := map[int]*treeFrom{}
	refs := map[string]map[string]bool{}
	add := func(items []*pg_query.Node, target, scalar bool) *treeFrom {
		c := &treeFrom{FromClause: fact.FromClause{First: -1, Target: target, Scalar: scalar}}
		var visit func(*pg_query.Node)
		visit = func(n *pg_query.Node) {
			switch x := n.GetNode().(type) {
			case *pg_query.Node_JoinExpr:
				// An ON follows both sides of its join: in the order written.
				visit(x.JoinExpr.GetLarg())
				visit(x.JoinExpr.GetRarg())
				if q := x.JoinExpr.GetQuals(); q != nil {
					c.ons = append(c.ons, q)
				}
			case *pg_query.Node_RangeVar:
				at := s.Orig(x.RangeVar.GetLocation())
				if c.Items == 0 {
					c.First = at
				}
				c.Items++
				out[at] = c
			default:
				c.Items++
			}
		}
		for _, it := range items {
			visit(it)
		}
		return c
	}
	// Parents come before children, so a scalar subquery is known before
	// its SELECT is reached.
	scalar := map[*pg_query.SelectStmt]bool{}
	tree.Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.ColumnRef:
			if col := fact.RefOf(x); col.Name != "" {
				if refs[col.Qualifier] == nil {
					refs[col.Qualifier] = map[string]bool{}
				}
				refs[col.Qualifier][col.Name] = true
			}
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
		case *pg_query.MergeStmt:
			// The source of a MERGE is joined to the target by the MERGE's ON.
			c := add([]*pg_query.Node{x.GetSourceRelation()}, true, false)
			if on := x.GetJoinCondition(); on != nil {
				c.ons = append(c.ons, on)
			}
		}
		return true
	})
	return out, refs
}

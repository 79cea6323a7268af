package sqlparse

import (
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// What a statement reads and joins, from its tree: relations, joins with
// their conditions, and the helpers that read conditions.

// Reads returns every reference to a stored relation the statement reads,
// in the order they are written: FROM and JOIN items, USING, subqueries
// anywhere, WITH query bodies. Names of WITH queries are not relations and
// are left out, and so is the written relation, unless it is read too.
// Statements other than queries and DML (DDL, GRANT, ...) read nothing.
func (s *Statement) Reads() []sqlname.Relation {
	s.facts.readsOnce.Do(func() { s.facts.reads = s.reads() })
	return s.facts.reads
}

func (s *Statement) reads() []sqlname.Relation {
	written := map[*pg_query.RangeVar]bool{}
	switch n := s.Node.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		written[n.SelectStmt.GetIntoClause().GetRel()] = true
	case *pg_query.Node_InsertStmt:
		written[n.InsertStmt.GetRelation()] = true
	case *pg_query.Node_UpdateStmt:
		written[n.UpdateStmt.GetRelation()] = true
	case *pg_query.Node_DeleteStmt:
		written[n.DeleteStmt.GetRelation()] = true
	case *pg_query.Node_MergeStmt:
		written[n.MergeStmt.GetRelation()] = true
	case *pg_query.Node_CreateTableAsStmt:
		written[n.CreateTableAsStmt.GetInto().GetRel()] = true
	case *pg_query.Node_ViewStmt:
		written[n.ViewStmt.GetView()] = true
	case *pg_query.Node_CopyStmt:
		if n.CopyStmt.GetIsFrom() {
			written[n.CopyStmt.GetRelation()] = true
		}
	default:
		return nil
	}
	var out []sqlname.Relation
	tree.Inspect(s.Node, func(m proto.Message, sc *tree.Scope) bool {
		if rv, ok := m.(*pg_query.RangeVar); ok && !written[rv] && !sc.IsCTE(rv) {
			out = append(out, fact.RelationOf(&s.Source, rv))
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// Joins returns every relation joined in a FROM clause at any depth (the
// first FROM item included), in UPDATE ... FROM and DELETE ... USING, and
// the relation a MERGE reads in USING, in the order they are written.
// Subqueries in FROM are not joins themselves; the relations inside them are.
func (s *Statement) Joins() []fact.Join {
	s.facts.joinsOnce.Do(func() { s.facts.joins = s.joins() })
	return s.facts.joins
}

func (s *Statement) joins() []fact.Join {
	if s.Node == nil {
		return nil
	}
	var out []fact.Join
	tree.Inspect(s.Node, func(m proto.Message, sc *tree.Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			out = s.fromJoins(out, x.GetFromClause(), x.GetWhereClause(), sc)
		case *pg_query.UpdateStmt:
			out = s.fromJoins(out, x.GetFromClause(), x.GetWhereClause(), sc)
		case *pg_query.DeleteStmt:
			out = s.fromJoins(out, x.GetUsingClause(), x.GetWhereClause(), sc)
		case *pg_query.MergeStmt:
			if rv := x.GetSourceRelation().GetRangeVar(); rv != nil {
				r := fact.RelationOf(&s.Source, rv)
				out = append(out, fact.Join{Relation: r, Alias: qualifier(rv), Inner: true, CTE: sc.IsCTE(rv), On: x.GetJoinCondition(), Offset: r.Offset})
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

func (s *Statement) fromJoins(out []fact.Join, from []*pg_query.Node, where *pg_query.Node, sc *tree.Scope) []fact.Join {
	start := len(out)
	for _, item := range from {
		out = s.joinTree(out, item, nil, false, sc)
	}
	alone := len(from) == 1 && from[0].GetRangeVar() != nil
	conj := fact.Conjuncts(where)
	for i := start; i < len(out); i++ {
		j := &out[i]
		for _, c := range conj {
			if tree.Mentions(c, j.Alias) || alone && tree.MentionsUnqualified(c) {
				j.Where = append(j.Where, c)
			}
		}
	}
	return out
}

func (s *Statement) joinTree(out []fact.Join, n, on *pg_query.Node, nullable bool, sc *tree.Scope) []fact.Join {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		r := fact.RelationOf(&s.Source, x.RangeVar)
		j := fact.Join{Relation: r, Alias: qualifier(x.RangeVar), Inner: !nullable, CTE: sc.IsCTE(x.RangeVar), On: on, Offset: r.Offset}
		if j.CTE {
			j.Through = s.provenance(sc, x.RangeVar, j.Alias, r.Offset)
		}
		return append(out, j)
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		if j.GetQuals() != nil {
			on = j.GetQuals()
		}
		left, right := nullable, nullable
		switch j.GetJointype() {
		case pg_query.JoinType_JOIN_LEFT:
			right = true
		case pg_query.JoinType_JOIN_RIGHT:
			left = true
		case pg_query.JoinType_JOIN_FULL:
			left, right = true, true
		}
		out = s.joinTree(out, j.GetLarg(), on, left, sc)
		return s.joinTree(out, j.GetRarg(), on, right, sc)
	}
	return out
}

// qualifier is the name that qualifies a FROM item's columns.
func qualifier(rv *pg_query.RangeVar) string {
	if a := rv.GetAlias().GetAliasname(); a != "" {
		return a
	}
	return rv.GetRelname()
}

// Equalities returns the column pairs an ON equates between two sides, each
// as {left column, right column}: t.a = s.a gives {a, a} whichever side is
// written first. Comparisons with constants or ranges, and columns without
// one of the two qualifiers, are not key equalities and are left out.
// Qualifiers compare without regard to case; casts around a column are
// looked through.
func Equalities(on *pg_query.Node, leftAlias, rightAlias string) [][2]string {
	var out [][2]string
	for _, c := range fact.Conjuncts(on) {
		e := c.GetAExpr()
		if e == nil || !isEquality(e) {
			continue
		}
		lq, lc := plainColumn(e.GetLexpr())
		rq, rc := plainColumn(e.GetRexpr())
		if lc == "" || rc == "" {
			continue
		}
		switch {
		case strings.EqualFold(tree.LastPart(lq), leftAlias) && strings.EqualFold(tree.LastPart(rq), rightAlias):
			out = append(out, [2]string{lc, rc})
		case strings.EqualFold(tree.LastPart(lq), rightAlias) && strings.EqualFold(tree.LastPart(rq), leftAlias):
			out = append(out, [2]string{rc, lc})
		}
	}
	return out
}

func isEquality(e *pg_query.A_Expr) bool {
	switch e.GetKind() {
	case pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		return true
	case pg_query.A_Expr_Kind_AEXPR_OP:
		return tree.OpName(e) == "="
	}
	return false
}

// plainColumn returns the column a node is, looking through casts and
// COLLATE; col is "" when the node is not a column.
func plainColumn(n *pg_query.Node) (qual, col string) {
	for {
		switch x := n.GetNode().(type) {
		case *pg_query.Node_TypeCast:
			n = x.TypeCast.GetArg()
		case *pg_query.Node_CollateClause:
			n = x.CollateClause.GetArg()
		case *pg_query.Node_ColumnRef:
			return tree.ColumnName(x.ColumnRef)
		default:
			return "", ""
		}
	}
}

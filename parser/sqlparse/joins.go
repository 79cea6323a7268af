package sqlparse

import (
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
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
	inspect(s.Node, func(m proto.Message, sc *scope) bool {
		if rv, ok := m.(*pg_query.RangeVar); ok && !written[rv] && !sc.isCTE(rv) {
			out = append(out, relationOf(&s.Source, rv))
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// Join is a relation in a FROM clause, or the USING source of a MERGE.
type Join struct {
	Relation sqlname.Relation
	// Alias qualifies the relation's columns: the alias, or the relation's
	// own name (as the parser folds it) when it has none.
	Alias string
	// Inner is false when the relation is on the nullable side of an outer
	// join: rows of the other side that match nothing here are kept.
	Inner bool
	// CTE is set when the name refers to a WITH query, not a stored relation.
	CTE bool
	// On is the ON of the innermost join the relation takes part in, on
	// either side; nil for a FROM item joined by comma, USING or NATURAL.
	On *pg_query.Node
	// Where are the conjuncts of the same query's WHERE that mention the
	// relation's columns; when it is the only FROM item, unqualified
	// columns can only be its own and count too.
	Where []*pg_query.Node
	// Offset is the relation's name, where BF701-BF704 report.
	Offset int
	// Through is set when the name refers to a WITH query that selects
	// from one relation (projection, renames, filters): the query stands
	// for that relation wherever it is joined.
	Through *Provenance
}

// Provenance is the stored relation a WITH query stands for.
type Provenance struct {
	// Relation is the stored relation, at the offset of the name that
	// joins the WITH query.
	Relation sqlname.Relation
	// Via names the WITH queries on the way, the joined one first.
	Via []string
	// Renames maps a column the joined query names to the relation's
	// column it is (valid_to_ts to valid_to); "" for a column it
	// computes. A column not in it is the relation's own.
	Renames map[string]string
	// Filters are the WITH queries' conditions, their columns qualified
	// by the alias the WITH query is joined under.
	Filters []*pg_query.Node
}

// Joins returns every relation joined in a FROM clause at any depth (the
// first FROM item included), in UPDATE ... FROM and DELETE ... USING, and
// the relation a MERGE reads in USING, in the order they are written.
// Subqueries in FROM are not joins themselves; the relations inside them are.
func (s *Statement) Joins() []Join {
	s.facts.joinsOnce.Do(func() { s.facts.joins = s.joins() })
	return s.facts.joins
}

func (s *Statement) joins() []Join {
	if s.Node == nil {
		return nil
	}
	var out []Join
	inspect(s.Node, func(m proto.Message, sc *scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			out = s.fromJoins(out, x.GetFromClause(), x.GetWhereClause(), sc)
		case *pg_query.UpdateStmt:
			out = s.fromJoins(out, x.GetFromClause(), x.GetWhereClause(), sc)
		case *pg_query.DeleteStmt:
			out = s.fromJoins(out, x.GetUsingClause(), x.GetWhereClause(), sc)
		case *pg_query.MergeStmt:
			if rv := x.GetSourceRelation().GetRangeVar(); rv != nil {
				r := relationOf(&s.Source, rv)
				out = append(out, Join{Relation: r, Alias: qualifier(rv), Inner: true, CTE: sc.isCTE(rv), On: x.GetJoinCondition(), Offset: r.Offset})
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

func (s *Statement) fromJoins(out []Join, from []*pg_query.Node, where *pg_query.Node, sc *scope) []Join {
	start := len(out)
	for _, item := range from {
		out = s.joinTree(out, item, nil, false, sc)
	}
	alone := len(from) == 1 && from[0].GetRangeVar() != nil
	conj := Conjuncts(where)
	for i := start; i < len(out); i++ {
		j := &out[i]
		for _, c := range conj {
			if mentions(c, j.Alias) || alone && mentionsUnqualified(c) {
				j.Where = append(j.Where, c)
			}
		}
	}
	return out
}

func (s *Statement) joinTree(out []Join, n, on *pg_query.Node, nullable bool, sc *scope) []Join {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		r := relationOf(&s.Source, x.RangeVar)
		j := Join{Relation: r, Alias: qualifier(x.RangeVar), Inner: !nullable, CTE: sc.isCTE(x.RangeVar), On: on, Offset: r.Offset}
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

// mentions reports whether n refers to a column qualified by qual, at any
// depth: a correlated subquery that uses the relation mentions it too.
func mentions(n *pg_query.Node, qual string) bool {
	found := false
	inspect(n, func(m proto.Message, _ *scope) bool {
		if c, ok := m.(*pg_query.ColumnRef); ok && !found {
			if q, _ := columnName(c); q != "" && strings.EqualFold(lastPart(q), qual) {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsUnqualified reports whether n uses a column without a qualifier
// outside subqueries, whose unqualified columns are their own.
func mentionsUnqualified(n *pg_query.Node) bool {
	found := false
	inspect(n, func(m proto.Message, _ *scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			if q, col := columnName(x); q == "" && col != "" {
				found = true
			}
		}
		return !found
	})
	return found
}

// columnName splits a column reference into its qualifier (the dotted parts
// before the column, in lower case) and the column, in lower case; col is
// "" for t.* and similar.
func columnName(c *pg_query.ColumnRef) (qual, col string) {
	fields := c.GetFields()
	if len(fields) == 0 {
		return "", ""
	}
	col = strings.ToLower(fields[len(fields)-1].GetString_().GetSval())
	quals := make([]string, 0, len(fields)-1)
	for _, f := range fields[:len(fields)-1] {
		quals = append(quals, strings.ToLower(f.GetString_().GetSval()))
	}
	return strings.Join(quals, "."), col
}

func lastPart(dotted string) string { return dotted[strings.LastIndexByte(dotted, '.')+1:] }

// Conjuncts splits an AND tree into the predicates that must all hold; any
// other expression is a single conjunct.
func Conjuncts(n *pg_query.Node) []*pg_query.Node {
	if n == nil {
		return nil
	}
	if b := n.GetBoolExpr(); b != nil && b.GetBoolop() == pg_query.BoolExprType_AND_EXPR {
		var out []*pg_query.Node
		for _, a := range b.GetArgs() {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []*pg_query.Node{n}
}

// Equalities returns the column pairs an ON equates between two sides, each
// as {left column, right column}: t.a = s.a gives {a, a} whichever side is
// written first. Comparisons with constants or ranges, and columns without
// one of the two qualifiers, are not key equalities and are left out.
// Qualifiers compare without regard to case; casts around a column are
// looked through.
func Equalities(on *pg_query.Node, leftAlias, rightAlias string) [][2]string {
	var out [][2]string
	for _, c := range Conjuncts(on) {
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
		case strings.EqualFold(lastPart(lq), leftAlias) && strings.EqualFold(lastPart(rq), rightAlias):
			out = append(out, [2]string{lc, rc})
		case strings.EqualFold(lastPart(lq), rightAlias) && strings.EqualFold(lastPart(rq), leftAlias):
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
		return opName(e) == "="
	}
	return false
}

func opName(e *pg_query.A_Expr) string {
	names := e.GetName()
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
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
			return columnName(x.ColumnRef)
		default:
			return "", ""
		}
	}
}

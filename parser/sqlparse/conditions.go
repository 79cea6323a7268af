package sqlparse

import (
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Condition is a condition of a statement: a WHERE, an ON, a MERGE WHEN
// ... AND, a REPLACE WHERE; read from the tree, or from the tokens of a
// statement that did not parse.
type Condition struct {
	// Statement is the statement Node was parsed in: the statement itself,
	// or the predicate of a REPLACE WHERE parsed on its own.
	Statement *Statement
	Node      *pg_query.Node
	// Shift turns the statement's offsets into offsets of the SQL file:
	// zero, except for a REPLACE WHERE predicate.
	Shift int
	// Tokens stands in for Node: a conjunct of a statement read from its
	// tokens that did not parse even on its own.
	Tokens *fact.Conjunct
}

// Bounds are the column bounds the condition sets, at offsets of the file.
func (c Condition) Bounds() []fact.Bound {
	if c.Tokens != nil {
		return c.Tokens.Bounds
	}
	bs := Bounds(c.Statement, c.Node)
	for i := range bs {
		bs[i].Value.Offset += c.Shift
		bs[i].Offset += c.Shift
	}
	return bs
}

// Conjuncts splits the condition into the parts that must all hold.
func (c Condition) Conjuncts() []Condition {
	if c.Tokens != nil {
		return []Condition{c}
	}
	var out []Condition
	for _, n := range fact.Conjuncts(c.Node) {
		out = append(out, Condition{Statement: c.Statement, Node: n, Shift: c.Shift})
	}
	return out
}

// NowCalls are the offsets of the clock functions the condition calls.
func (c Condition) NowCalls() []int {
	if c.Tokens != nil {
		return c.Tokens.Now
	}
	offs := NowCalls(c.Statement, c.Node)
	for i := range offs {
		offs[i] += c.Shift
	}
	return offs
}

// Columns are the names of the columns the condition refers to, at any
// depth, in the order they stand.
func (c Condition) Columns() []string {
	if c.Tokens != nil {
		return c.Tokens.Columns
	}
	var out []string
	tree.Walk(c.Node, func(m proto.Message) bool {
		if ref, ok := m.(*pg_query.ColumnRef); ok {
			if fields := ref.GetFields(); len(fields) > 0 {
				if col := fields[len(fields)-1].GetString_().GetSval(); col != "" {
					out = append(out, col)
				}
			}
		}
		return true
	})
	return out
}

// conditionSet collects conditions once each: the same query can be
// reached as a WITH query and as the source a MERGE names.
type conditionSet struct {
	st   *Statement
	seen map[*pg_query.Node]bool
	out  []Condition
}

func newConditionSet(st *Statement) *conditionSet {
	return &conditionSet{st: st, seen: map[*pg_query.Node]bool{}}
}

func (s *conditionSet) add(n *pg_query.Node) {
	if n != nil && !s.seen[n] {
		s.seen[n] = true
		s.out = append(s.out, Condition{Statement: s.st, Node: n})
	}
}

// query adds the conditions that choose the rows a query returns: its WHERE,
// the ON of its joins, and the same of the subqueries and WITH queries it
// selects from, and of each branch of a UNION. Subqueries in its WHERE or
// select list only compute values; their conditions choose no output rows.
func (s *conditionSet) query(sel *pg_query.SelectStmt) {
	if sel == nil {
		return
	}
	s.add(sel.GetWhereClause())
	s.query(sel.GetLarg())
	s.query(sel.GetRarg())
	s.ctes(sel.GetWithClause())
	for _, item := range sel.GetFromClause() {
		s.from(item)
	}
}

func (s *conditionSet) from(n *pg_query.Node) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeSubselect:
		s.query(x.RangeSubselect.GetSubquery().GetSelectStmt())
	case *pg_query.Node_JoinExpr:
		s.add(x.JoinExpr.GetQuals())
		s.from(x.JoinExpr.GetLarg())
		s.from(x.JoinExpr.GetRarg())
	}
}

func (s *conditionSet) ctes(w *pg_query.WithClause) {
	for _, c := range w.GetCtes() {
		s.query(c.GetCommonTableExpr().GetCtequery().GetSelectStmt())
	}
}

// withReplaceWhere adds the statement's REPLACE WHERE predicate, if any.
func (s *Statement) withReplaceWhere(out []Condition) []Condition {
	if p := s.ReplaceWhere; p != nil {
		out = append(out, Condition{Statement: p.Statement, Node: p.Where, Shift: p.Shift})
	}
	return out
}

// WriteConditions returns, from the tree, the conditions that choose the
// rows w changes: the WHERE of a DELETE or UPDATE, Databricks' REPLACE
// WHERE, the ON and WHEN conditions of a MERGE with the query of its
// source, and the query that feeds an INSERT or CREATE TABLE ... AS.
func (s *Statement) WriteConditions(w fact.Write) []Condition {
	cs := newConditionSet(s)
	cs.add(w.Where)
	if m := s.Node.GetMergeStmt(); m != nil {
		cs.add(m.GetJoinCondition())
		for _, c := range m.GetMergeWhenClauses() {
			cs.add(c.GetMergeWhenClause().GetCondition())
		}
		cs.ctes(m.GetWithClause())
		cs.from(m.GetSourceRelation())
	}
	cs.ctes(s.Node.GetInsertStmt().GetWithClause())
	cs.query(s.Select())
	return s.withReplaceWhere(cs.out)
}

// TokenWriteConditions returns the same for s read from its tokens tf:
// the statement's own WHERE for a DELETE or UPDATE, and for other writes
// every condition outside a subquery that computes a value.
func (s *Statement) TokenWriteConditions(tf *fact.TokenFacts, w fact.Write) []Condition {
	var out []Condition
	rowsOfItsOwn := w.Kind == fact.WriteDelete || w.Kind == fact.WriteUpdate
	for _, c := range tf.Conds {
		if rowsOfItsOwn && !c.Top || !rowsOfItsOwn && c.Sub {
			continue
		}
		for i := range c.Conjuncts {
			if cj := &c.Conjuncts[i]; cj.Node != nil {
				out = append(out, Condition{Statement: s, Node: cj.Node})
			} else {
				out = append(out, Condition{Statement: s, Tokens: cj})
			}
		}
	}
	return s.withReplaceWhere(out)
}

// Conditions returns every condition of the statement, in queries at any
// depth: the WHERE of each query, DELETE and UPDATE, each join's ON, a
// MERGE's ON and WHEN conditions, and Databricks' REPLACE WHERE.
func (s *Statement) Conditions() []Condition {
	cs := newConditionSet(s)
	tree.Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			cs.add(x.GetWhereClause())
		case *pg_query.JoinExpr:
			cs.add(x.GetQuals())
		case *pg_query.DeleteStmt:
			cs.add(x.GetWhereClause())
		case *pg_query.UpdateStmt:
			cs.add(x.GetWhereClause())
		case *pg_query.MergeStmt:
			cs.add(x.GetJoinCondition())
		case *pg_query.MergeWhenClause:
			cs.add(x.GetCondition())
		}
		return true
	})
	return s.withReplaceWhere(cs.out)
}

package daterange

import (
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// cond is a condition of a statement: a WHERE, an ON, a MERGE WHEN ... AND.
type cond struct {
	st   *sqlparse.Statement // the statement the node was parsed in
	node *pg_query.Node
	// shift turns the statement's offsets into offsets of the SQL file: zero,
	// except for a REPLACE WHERE predicate, which is parsed on its own.
	shift int
	// tokens stands in for node: a conjunct of a statement read from its
	// tokens that did not parse even on its own.
	tokens *sqlparse.Conjunct
}

func (c cond) bounds() []sqlparse.Bound {
	if c.tokens != nil {
		return c.tokens.Bounds
	}
	bs := sqlparse.Bounds(c.st, c.node)
	for i := range bs {
		bs[i].Value.Offset += c.shift
		bs[i].Offset += c.shift
	}
	return bs
}

// conjuncts splits the condition into the parts that must all hold.
func (c cond) conjuncts() []cond {
	if c.tokens != nil {
		return []cond{c}
	}
	var out []cond
	for _, n := range sqlparse.Conjuncts(c.node) {
		out = append(out, cond{st: c.st, node: n, shift: c.shift})
	}
	return out
}

func (c cond) nowCalls() []int {
	if c.tokens != nil {
		return c.tokens.Now
	}
	offs := sqlparse.NowCalls(c.st, c.node)
	for i := range offs {
		offs[i] += c.shift
	}
	return offs
}

// partitionColumn returns the first partition column the condition refers
// to, at any depth; "" when it refers to none.
func (c cond) partitionColumn(pass *rules.Pass) string {
	if c.tokens == nil {
		return partitionColumn(pass, c.node)
	}
	for _, col := range c.tokens.Columns {
		if pass.IsPartitionColumn(col) {
			return col
		}
	}
	return ""
}

// condSet collects conditions once each: the same query can be reached as a
// WITH query and as the source a MERGE names.
type condSet struct {
	st   *sqlparse.Statement
	seen map[*pg_query.Node]bool
	out  []cond
}

func newCondSet(st *sqlparse.Statement) *condSet {
	return &condSet{st: st, seen: map[*pg_query.Node]bool{}}
}

func (s *condSet) add(n *pg_query.Node) {
	if n != nil && !s.seen[n] {
		s.seen[n] = true
		s.out = append(s.out, cond{st: s.st, node: n})
	}
}

// query adds the conditions that choose the rows a query returns: its WHERE,
// the ON of its joins, and the same of the subqueries and WITH queries it
// selects from, and of each branch of a UNION. Subqueries in its WHERE or
// select list only compute values; their conditions choose no output rows.
func (s *condSet) query(sel *pg_query.SelectStmt) {
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

func (s *condSet) from(n *pg_query.Node) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeSubselect:
		s.query(x.RangeSubselect.GetSubquery().GetSelectStmt())
	case *pg_query.Node_JoinExpr:
		s.add(x.JoinExpr.GetQuals())
		s.from(x.JoinExpr.GetLarg())
		s.from(x.JoinExpr.GetRarg())
	}
}

func (s *condSet) ctes(w *pg_query.WithClause) {
	for _, c := range w.GetCtes() {
		s.query(c.GetCommonTableExpr().GetCtequery().GetSelectStmt())
	}
}

// writeConditions returns the conditions that choose the rows a write
// changes: the WHERE of a DELETE or UPDATE, Databricks' REPLACE WHERE, the
// ON and WHEN conditions of a MERGE with the query of its source, and the
// query that feeds an INSERT or CREATE TABLE ... AS.
func writeConditions(st *sqlparse.Statement, w sqlparse.Write) []cond {
	s := newCondSet(st)
	s.add(w.Where)
	if m := st.Node.GetMergeStmt(); m != nil {
		s.add(m.GetJoinCondition())
		for _, c := range m.GetMergeWhenClauses() {
			s.add(c.GetMergeWhenClause().GetCondition())
		}
		s.ctes(m.GetWithClause())
		s.from(m.GetSourceRelation())
	}
	s.ctes(st.Node.GetInsertStmt().GetWithClause())
	s.query(st.Select())
	if rw, ok := replaceWhere(st); ok {
		s.out = append(s.out, rw)
	}
	return s.out
}

// tokenWriteConditions returns the conditions that choose the rows a write
// changes, for a statement read from its tokens: the statement's own WHERE
// for a DELETE or UPDATE, and for other writes every condition outside a
// subquery that computes a value, as writeConditions reads them from a
// tree.
func tokenWriteConditions(st *sqlparse.Statement, tf *sqlparse.TokenFacts, w sqlparse.Write) []cond {
	var out []cond
	rowsOfItsOwn := w.Kind == sqlparse.WriteDelete || w.Kind == sqlparse.WriteUpdate
	for _, c := range tf.Conds {
		if rowsOfItsOwn && !c.Top || !rowsOfItsOwn && c.Sub {
			continue
		}
		for i := range c.Conjuncts {
			if cj := &c.Conjuncts[i]; cj.Node != nil {
				out = append(out, cond{st: st, node: cj.Node})
			} else {
				out = append(out, cond{st: st, tokens: cj})
			}
		}
	}
	if rw, ok := replaceWhere(st); ok {
		out = append(out, rw)
	}
	return out
}

// allConditions returns every condition of a statement, in queries at any
// depth: the WHERE of each query, DELETE and UPDATE, each join's ON, a
// MERGE's ON and WHEN conditions, and Databricks' REPLACE WHERE.
func allConditions(st *sqlparse.Statement) []cond {
	s := newCondSet(st)
	sqlparse.Walk(st.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			s.add(x.GetWhereClause())
		case *pg_query.JoinExpr:
			s.add(x.GetQuals())
		case *pg_query.DeleteStmt:
			s.add(x.GetWhereClause())
		case *pg_query.UpdateStmt:
			s.add(x.GetWhereClause())
		case *pg_query.MergeStmt:
			s.add(x.GetJoinCondition())
		case *pg_query.MergeWhenClause:
			s.add(x.GetCondition())
		}
		return true
	})
	if rw, ok := replaceWhere(st); ok {
		s.out = append(s.out, rw)
	}
	return s.out
}

// partitionColumn returns the first partition column n refers to, at any
// depth; "" when it refers to none.
func partitionColumn(pass *rules.Pass, n *pg_query.Node) string {
	found := ""
	sqlparse.Walk(n, func(m proto.Message) bool {
		if c, ok := m.(*pg_query.ColumnRef); ok && found == "" {
			if fields := c.GetFields(); len(fields) > 0 {
				if col := fields[len(fields)-1].GetString_().GetSval(); col != "" && pass.IsPartitionColumn(col) {
					found = col
				}
			}
		}
		return found == ""
	})
	return found
}

// replaceWhere is the predicate of INSERT INTO t REPLACE WHERE pred, which
// the parser reads on its own since normalisation removes the clause.
func replaceWhere(st *sqlparse.Statement) (cond, bool) {
	p := st.ReplaceWhere
	if p == nil {
		return cond{}, false
	}
	return cond{st: p.Statement, node: p.Where, shift: p.Shift}, true
}

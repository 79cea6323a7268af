package sqlparse

import (
	"sort"
	"strings"
	"sync"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// MERGE and SELECT facts from the tree: the merge's actions, select lists,
// GROUP BY and HAVING, transactions, and the scoped walk over CTEs.

// MergeInsert is a WHEN NOT MATCHED [AND cond] THEN INSERT clause.
type MergeInsert struct {
	Cond *pg_query.Node
	// Columns is the INSERT column list; nil when the clause names none
	// and so fills every column in order.
	Columns []string
	// AllColumns is set for INSERT * (Databricks) and INSERT ROW
	// (BigQuery), which fill every target column from the source column of
	// the same name.
	AllColumns bool
	// Offset is the clause's WHEN.
	Offset int
}

// Merge is what a MERGE reads and writes.
type Merge struct {
	Target sqlname.Relation
	// TargetAlias and SourceAlias qualify each side's columns: the alias,
	// or the relation's own name when it has none.
	TargetAlias string
	// Source is the USING item as parsed.
	Source      *pg_query.Node
	SourceAlias string
	// SourceRelation is the name in USING, when it is a name.
	SourceRelation *sqlname.Relation
	// SourceSelect is the query the source stands for: USING (SELECT ...),
	// or the WITH query of the MERGE that USING names. Its WHERE is where a
	// bound on the inserted rows would be (BF203).
	SourceSelect *pg_query.Node
	On           *pg_query.Node
	// NotMatchedInsert are the clauses that insert source rows the target
	// lacks.
	NotMatchedInsert []MergeInsert
	// UpdatedColumns are the target columns its WHEN MATCHED ... UPDATE
	// clauses set, in lower case; warehouses accept SET t.col = ..., which
	// names col.
	UpdatedColumns []string
	// Offset is the MERGE keyword, where BF203 and BF207 report.
	Offset int
}

// Merge returns the facts of a MERGE; ok is false for other statements.
func (s *Statement) Merge() (Merge, bool) {
	x := s.Node.GetMergeStmt()
	if x == nil {
		return Merge{}, false
	}
	keyword := s.keyword()
	m := Merge{
		Target:      s.target(x.GetRelation(), keyword),
		TargetAlias: qualifier(x.GetRelation()),
		Source:      x.GetSourceRelation(),
		On:          x.GetJoinCondition(),
		Offset:      keyword,
	}
	switch src := x.GetSourceRelation().GetNode().(type) {
	case *pg_query.Node_RangeVar:
		r := fact.RelationOf(&s.Source, src.RangeVar)
		m.SourceRelation = &r
		m.SourceAlias = qualifier(src.RangeVar)
		if len(r.Parts) == 1 {
			for _, c := range x.GetWithClause().GetCtes() {
				if cte := c.GetCommonTableExpr(); cte.GetCtename() == src.RangeVar.GetRelname() {
					m.SourceSelect = cte.GetCtequery()
				}
			}
		}
	case *pg_query.Node_RangeSubselect:
		m.SourceSelect = src.RangeSubselect.GetSubquery()
		m.SourceAlias = src.RangeSubselect.GetAlias().GetAliasname()
	}
	whens := s.mergeWhens(len(x.GetMergeWhenClauses()), m.Offset)
	for i, c := range x.GetMergeWhenClauses() {
		wc := c.GetMergeWhenClause()
		if wc.GetCommandType() == pg_query.CmdType_CMD_UPDATE {
			for _, t := range wc.GetTargetList() {
				m.UpdatedColumns = append(m.UpdatedColumns, setColumn(t.GetResTarget()))
			}
		}
		if isNotMatchedInsert(wc) {
			m.NotMatchedInsert = append(m.NotMatchedInsert, MergeInsert{
				Cond:    wc.GetCondition(),
				Columns: targetNames(wc.GetTargetList()),
				// The rewrite leaves INSERT DEFAULT VALUES: no columns, no values.
				AllColumns: s.Flags&dialect.MergeAllColumns != 0 && len(wc.GetTargetList()) == 0 && len(wc.GetValues()) == 0,
				Offset:     whens[i],
			})
		}
	}
	return m, true
}

// setColumn is the column an UPDATE SET item assigns.
func setColumn(rt *pg_query.ResTarget) string {
	name := rt.GetName()
	if ind := rt.GetIndirection(); len(ind) > 0 {
		if s := ind[len(ind)-1].GetString_(); s != nil {
			name = s.GetSval()
		}
	}
	return strings.ToLower(name)
}

// maxQueryDepth stops the walk through subqueries and WITH queries that
// refer to each other.
const maxQueryDepth = 16

// SourceLimited reports whether every row the MERGE's USING query returns
// passes a WHERE whose bounds limited accepts: the query's own WHERE, or,
// when it reads a single subquery, WITH query or relation that filled
// accepts, that one's; every branch of a UNION must. filled stands for
// what the statements before this one built (a temporary table filled
// from a bounded query); any other stored relation in USING is read whole,
// whatever it was built with, and is not limited.
func (s *Statement) SourceLimited(m Merge, limited func([]fact.Bound) bool, filled func(sqlname.Relation) bool) bool {
	if m.SourceSelect == nil {
		return m.SourceRelation != nil && filled(*m.SourceRelation)
	}
	ctes := withQueries(s.Node.GetMergeStmt().GetWithClause(), nil)
	return s.queryLimited(m.SourceSelect.GetSelectStmt(), ctes, limited, filled, 0)
}

// QueryLimited reports whether every row the statement's query (a SELECT,
// CREATE TABLE ... AS, INSERT ... SELECT) returns is limited, as
// SourceLimited reads a MERGE's source.
func (s *Statement) QueryLimited(limited func([]fact.Bound) bool, filled func(sqlname.Relation) bool) bool {
	return s.queryLimited(s.Select(), nil, limited, filled, 0)
}

func (s *Statement) queryLimited(sel *pg_query.SelectStmt, ctes map[string]*pg_query.Node, limited func([]fact.Bound) bool, filled func(sqlname.Relation) bool, depth int) bool {
	if sel == nil || depth > maxQueryDepth {
		return false
	}
	ctes = withQueries(sel.GetWithClause(), ctes)
	if sel.GetOp() != pg_query.SetOperation_SETOP_NONE {
		return s.queryLimited(sel.GetLarg(), ctes, limited, filled, depth+1) && s.queryLimited(sel.GetRarg(), ctes, limited, filled, depth+1)
	}
	if limited(Bounds(s, sel.GetWhereClause())) {
		return true
	}
	from := sel.GetFromClause()
	if len(from) != 1 {
		return false
	}
	switch x := from[0].GetNode().(type) {
	case *pg_query.Node_RangeSubselect:
		return s.queryLimited(x.RangeSubselect.GetSubquery().GetSelectStmt(), ctes, limited, filled, depth+1)
	case *pg_query.Node_RangeVar:
		if body, ok := ctes[x.RangeVar.GetRelname()]; ok && x.RangeVar.GetSchemaname() == "" && x.RangeVar.GetCatalogname() == "" {
			return s.queryLimited(body.GetSelectStmt(), ctes, limited, filled, depth+1)
		}
		return filled(fact.RelationOf(&s.Source, x.RangeVar))
	}
	return false
}

// withQueries adds the WITH queries of a clause to those visible outside it.
func withQueries(w *pg_query.WithClause, outer map[string]*pg_query.Node) map[string]*pg_query.Node {
	if len(w.GetCtes()) == 0 {
		return outer
	}
	out := map[string]*pg_query.Node{}
	for k, v := range outer {
		out[k] = v
	}
	for _, c := range w.GetCtes() {
		if cte := c.GetCommonTableExpr(); cte != nil {
			out[cte.GetCtename()] = cte.GetCtequery()
		}
	}
	return out
}

func isNotMatchedInsert(wc *pg_query.MergeWhenClause) bool {
	return wc != nil && !wc.GetMatched() && wc.GetCommandType() == pg_query.CmdType_CMD_INSERT
}

// mergeWhens finds the WHEN of each of the n clauses of a MERGE, since
// pg_query records no position for them: the clauses are the last n
// "WHEN [NOT] MATCHED" outside parentheses, which skips a CASE WHEN in ON.
// A clause whose WHEN is not found gets fallback.
func (s *Statement) mergeWhens(n, fallback int) []int {
	code := s.codeTokens()
	cur := sqltext.NewCursor(s.Text, code)
	word := cur.Word
	var found []int
	depth := 0
	for i, t := range code {
		if t.Kind == sqltext.Punct {
			switch s.Text[t.Start] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth == 0 && word(i) == "WHEN" && (word(i+1) == "MATCHED" || word(i+1) == "NOT" && word(i+2) == "MATCHED") {
			found = append(found, s.Map.Orig(int(t.Start)))
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = fallback
	}
	if len(found) >= n {
		copy(out, found[len(found)-n:])
	}
	return out
}

// Select returns the query of a SELECT, CREATE TABLE ... AS or
// INSERT ... SELECT (for INSERT ... VALUES, the VALUES list); nil for other
// statements. A UNION comes back whole, with Op set.
func (s *Statement) Select() *pg_query.SelectStmt {
	switch x := s.Node.GetNode().(type) {
	case *pg_query.Node_SelectStmt:
		return x.SelectStmt
	case *pg_query.Node_CreateTableAsStmt:
		return x.CreateTableAsStmt.GetQuery().GetSelectStmt()
	case *pg_query.Node_InsertStmt:
		return x.InsertStmt.GetSelectStmt().GetSelectStmt()
	}
	return nil
}

// OutputColumns names the output columns of the statement's query, as
// SelectColumns does, except that a cast takes the name of the column it
// converts, as the warehouses name order_date::date; nil when the
// statement has no query.
func (s *Statement) OutputColumns() []string {
	sel := s.Select()
	if sel == nil {
		return nil
	}
	cols := SelectColumns(sel)
	for sel.GetOp() != pg_query.SetOperation_SETOP_NONE && sel.GetLarg() != nil {
		sel = sel.GetLarg()
	}
	targets := sel.GetTargetList()
	for i, c := range cols {
		if c == "" && i < len(targets) {
			_, cols[i] = plainColumn(targets[i].GetResTarget().GetVal())
		}
	}
	return cols
}

// Selects returns every SELECT in the statement, outer ones first: checks
// are often wrapped (SELECT count(*) FROM (SELECT key ... HAVING ...) d),
// so the shape a rule looks for may be at any depth.
func (s *Statement) Selects() []*pg_query.SelectStmt {
	var out []*pg_query.SelectStmt
	tree.Inspect(s.Node, func(m proto.Message, _ *tree.Scope) bool {
		if sel, ok := m.(*pg_query.SelectStmt); ok {
			out = append(out, sel)
		}
		return true
	})
	return out
}

// SelectColumns returns the names of a query's output columns: the alias,
// else the column's own name; "*" for a star and "" for an unnamed
// expression. Of a UNION, the first branch names the columns.
func SelectColumns(sel *pg_query.SelectStmt) []string {
	for sel.GetOp() != pg_query.SetOperation_SETOP_NONE && sel.GetLarg() != nil {
		sel = sel.GetLarg()
	}
	var out []string
	for _, t := range sel.GetTargetList() {
		rt := t.GetResTarget()
		name := strings.ToLower(rt.GetName())
		if name == "" {
			if c := rt.GetVal().GetColumnRef(); c != nil {
				if _, col := tree.ColumnName(c); col != "" {
					name = col
				} else {
					name = "*"
				}
			}
		}
		out = append(out, name)
	}
	return out
}

// GroupBy returns the GROUP BY columns of a query of the statement, in
// lower case, with positions (GROUP BY 1) resolved through the select list
// and GROUP BY ALL read as the selected columns that are not aggregates;
// ok is false when there is no GROUP BY or an item is not a plain column
// (an expression, ROLLUP, GROUPING SETS).
func (s *Statement) GroupBy(sel *pg_query.SelectStmt) (cols []string, ok bool) {
	items := sel.GetGroupClause()
	if len(items) == 0 {
		return nil, false
	}
	targets := sel.GetTargetList()
	// The GROUP BY ALL rewrite leaves GROUP BY ().
	if gs := items[0].GetGroupingSet(); len(items) == 1 && s.Flags&dialect.GroupByAll != 0 && gs.GetKind() == pg_query.GroupingSetKind_GROUPING_SET_EMPTY {
		for _, t := range targets {
			v := t.GetResTarget().GetVal()
			if hasAggregate(v) {
				continue
			}
			_, col := plainColumn(v)
			if col == "" {
				return nil, false
			}
			cols = append(cols, col)
		}
		return cols, len(cols) > 0
	}
	for _, g := range items {
		if pos := g.GetAConst().GetIval(); pos != nil {
			i := int(pos.GetIval())
			if i < 1 || i > len(targets) {
				return nil, false
			}
			g = targets[i-1].GetResTarget().GetVal()
		}
		_, col := plainColumn(g)
		if col == "" {
			return nil, false
		}
		cols = append(cols, col)
	}
	return cols, true
}

// HavingCountGreaterThanOne reports whether the HAVING is exactly
// "COUNT(*) > 1" or an equivalent (COUNT(1), >= 2, <> 1, 1 < COUNT(*)):
// the shape that returns every duplicated key and nothing else. Any other
// condition next to it could hide duplicates.
func HavingCountGreaterThanOne(sel *pg_query.SelectStmt) bool {
	e := sel.GetHavingClause().GetAExpr()
	if e == nil || e.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP {
		return false
	}
	op := tree.OpName(e)
	l, r := e.GetLexpr(), e.GetRexpr()
	if !isCountRows(l) {
		l, r = r, l
		op = tree.Flipped[op]
	}
	if !isCountRows(l) {
		return false
	}
	n, ok := intConst(r)
	if !ok {
		return false
	}
	switch op {
	case ">":
		return n == 1
	case ">=":
		return n == 2
	case "<>", "!=":
		return n == 1
	}
	return false
}

// aggregates are the aggregate functions a uniqueness check selects next
// to its key; GROUP BY ALL leaves them out of the grouping.
var aggregates = map[string]bool{
	"count": true, "sum": true, "min": true, "max": true, "avg": true, "any_value": true,
	"array_agg": true, "string_agg": true, "listagg": true, "count_if": true,
	"approx_count_distinct": true, "bool_and": true, "bool_or": true, "stddev": true, "variance": true,
}

func hasAggregate(n *pg_query.Node) bool {
	found := false
	tree.Inspect(n, func(m proto.Message, _ *tree.Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.FuncCall:
			found = found || x.GetOver() == nil && aggregates[tree.FuncName(x)]
		}
		return !found
	})
	return found
}

// isCountRows reports whether n counts every row of the group: COUNT(*) or
// COUNT of a constant, never COUNT(col), which skips NULLs.
func isCountRows(n *pg_query.Node) bool {
	f := n.GetFuncCall()
	names := f.GetFuncname()
	if f == nil || len(names) == 0 || !strings.EqualFold(names[len(names)-1].GetString_().GetSval(), "count") || f.GetAggDistinct() || f.GetAggFilter() != nil {
		return false
	}
	if f.GetAggStar() {
		return true
	}
	args := f.GetArgs()
	return len(args) == 1 && args[0].GetAConst() != nil && !args[0].GetAConst().GetIsnull()
}

func intConst(n *pg_query.Node) (int64, bool) {
	if iv := n.GetAConst().GetIval(); iv != nil {
		return int64(iv.GetIval()), true
	}
	return 0, false
}

// targetNames returns the names of an INSERT column list.
func targetNames(list []*pg_query.Node) []string {
	var out []string
	for _, t := range list {
		if name := t.GetResTarget().GetName(); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func stringValues(list []*pg_query.Node) []string {
	var out []string
	for _, n := range list {
		if s := n.GetString_(); s != nil {
			out = append(out, s.GetSval())
		}
	}
	return out
}

// Transactions returns the explicit transactions of the file as the
// indexes of the statements that open (BEGIN, START TRANSACTION) and close
// them (COMMIT, END, ROLLBACK, PREPARE TRANSACTION); a transaction never
// closed ends at len(f.Statements). Statements are taken in the order they
// are written, so that the variants of a Jinja file, listed one after the
// other, still fall between the BEGIN and COMMIT that surround them.
func (f *File) Transactions() [][2]int {
	order := make([]int, len(f.Statements))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Statements[order[a]].Start < f.Statements[order[b]].Start })
	var out [][2]int
	open := -1
	for _, i := range order {
		t := f.Statements[i].Node.GetTransactionStmt()
		if t == nil {
			continue
		}
		switch t.GetKind() {
		case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN, pg_query.TransactionStmtKind_TRANS_STMT_START:
			// PostgreSQL ignores a BEGIN inside a transaction, with a warning.
			if open < 0 {
				open = i
			}
		case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT, pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK, pg_query.TransactionStmtKind_TRANS_STMT_PREPARE:
			if open >= 0 {
				out = append(out, [2]int{open, i})
				open = -1
			}
			// COMMIT AND CHAIN starts the next transaction at once.
			if t.GetChain() {
				open = i
			}
		}
	}
	if open >= 0 {
		out = append(out, [2]int{open, len(f.Statements)})
	}
	return out
}

// Transaction returns the index of the statement that opened the explicit
// transaction statement i runs in, or -1 when it runs on its own. Two
// statements are atomic together when both return the same index.
func (f *File) Transaction(i int) int {
	if i < 0 || i >= len(f.Statements) {
		return -1
	}
	start := f.Statements[i].Start
	for _, t := range f.Transactions() {
		if start < f.Statements[t[0]].End {
			continue
		}
		if t[1] == len(f.Statements) || start < f.Statements[t[1]].Start {
			return t[0]
		}
	}
	return -1
}

// InTransaction reports whether statement i runs inside an explicit
// transaction.
func (f *File) InTransaction(i int) bool { return f.Transaction(i) >= 0 }

// facts caches what the helpers derive from a statement: every rule asks
// for the same joins and writes, and a file shared by several plans is
// checked from several goroutines at once.
type facts struct {
	writesOnce, readsOnce, joinsOnce, joinedOnce, tokensOnce, clockOnce sync.Once
	clock                                                               []ClockDecision
	writes                                                              []fact.Write
	reads                                                               []sqlname.Relation
	joins                                                               []fact.Join
	joined                                                              fact.Joined
	tokens                                                              *fact.TokenFacts
	// guards are Guards' answers by relation: two rules and the models
	// list ask the same statement about the same relation.
	guardsMu sync.Mutex
	guards   []guardsOf
}

// guardsOf is what Guards found for one relation, named by its parts.
type guardsOf struct {
	rel   string
	kinds []fact.GuardKind
}

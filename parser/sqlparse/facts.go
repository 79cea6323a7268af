package sqlparse

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// The facts below are read straight off pg_query's protobuf tree: rules ask
// small questions (what does this statement write, what does it join) and a
// second AST would only have to be kept in step with the parser's.

// WriteKind is how a statement changes a relation.
type WriteKind int

const (
	WriteNone             WriteKind = iota
	WriteInsert                     // INSERT INTO without ON CONFLICT
	WriteInsertOnConflict           // INSERT ... ON CONFLICT (DoUpdate tells DO UPDATE from DO NOTHING)
	WriteInsertOverwrite            // INSERT OVERWRITE (Partitioned when it names a PARTITION)
	WriteReplaceWhere               // INSERT INTO t REPLACE WHERE ...
	WriteMerge                      // MERGE
	WriteCreateTableAs              // CREATE TABLE ... AS, CREATE MATERIALIZED VIEW ... AS, SELECT ... INTO
	WriteCreateOrReplace            // CREATE OR REPLACE TABLE, with or without AS
	WriteCreateTable                // CREATE TABLE with a column list
	WriteDelete                     // DELETE
	WriteUpdate                     // UPDATE
	WriteTruncate                   // TRUNCATE
	WriteDrop                       // DROP TABLE, VIEW, MATERIALIZED VIEW, FOREIGN TABLE
	WriteCopy                       // COPY ... FROM, Snowflake COPY INTO a table
	WriteSwap                       // Snowflake ALTER TABLE a SWAP WITH b: each table is written
)

var writeKindNames = [...]string{
	WriteNone:             "none",
	WriteInsert:           "INSERT",
	WriteInsertOnConflict: "INSERT ON CONFLICT",
	WriteInsertOverwrite:  "INSERT OVERWRITE",
	WriteReplaceWhere:     "REPLACE WHERE",
	WriteMerge:            "MERGE",
	WriteCreateTableAs:    "CREATE TABLE AS",
	WriteCreateOrReplace:  "CREATE OR REPLACE",
	WriteCreateTable:      "CREATE TABLE",
	WriteDelete:           "DELETE",
	WriteUpdate:           "UPDATE",
	WriteTruncate:         "TRUNCATE",
	WriteDrop:             "DROP",
	WriteCopy:             "COPY",
	WriteSwap:             "SWAP",
}

func (k WriteKind) String() string {
	if k >= 0 && int(k) < len(writeKindNames) {
		return writeKindNames[k]
	}
	return "WriteKind(?)"
}

// Write is what a statement writes.
type Write struct {
	Kind WriteKind
	// Target is the written relation; its Offset is the name in the
	// statement, where BF201, BF302 and BF504 report.
	Target sqlname.Relation
	// Temporary is set for a TEMPORARY table, which ends with the session.
	Temporary bool
	// Columns is the INSERT column list, the column list of the first WHEN
	// NOT MATCHED THEN INSERT of a MERGE, or the names given to a CREATE
	// TABLE ... AS; nil when none is written. Unquoted names are in lower
	// case, as the parser folds them.
	Columns []string
	// ConflictColumns are the columns of ON CONFLICT (...).
	ConflictColumns []string
	// DoUpdate is set for ON CONFLICT ... DO UPDATE.
	DoUpdate bool
	// Partitioned is set for INSERT OVERWRITE ... PARTITION (...) and
	// TRUNCATE ... PARTITION (...), which replace or empty the named
	// partitions rather than the whole table.
	Partitioned bool
	// Where is the WHERE of a DELETE or UPDATE.
	Where *pg_query.Node
	// Offset is the statement's keyword (after any WITH queries).
	Offset int
}

// Write returns what the statement writes; ok is false for a statement
// that writes no relation (a query, a transaction statement, a view).
// TRUNCATE and DROP may name several relations: Writes has them all.
func (s *Statement) Write() (w Write, ok bool) {
	ws := s.Writes()
	if len(ws) == 0 {
		return Write{}, false
	}
	return ws[0], true
}

// Writes returns one Write per relation the statement writes.
//
// CREATE VIEW and CREATE OR REPLACE VIEW are not writes: a view holds no
// rows, so replacing one neither loses nor duplicates data.
func (s *Statement) Writes() []Write {
	s.facts.writesOnce.Do(func() { s.facts.writes = s.writes() })
	return s.facts.writes
}

func (s *Statement) writes() []Write {
	if s.Node == nil {
		return nil
	}
	base := Write{Offset: s.keyword()}
	one := func(kind WriteKind, rv *pg_query.RangeVar) Write {
		w := base
		w.Kind = kind
		w.Target = s.target(rv, w.Offset)
		w.Temporary = rv.GetRelpersistence() == "t"
		return w
	}
	var out []Write
	switch n := s.Node.GetNode().(type) {
	case *pg_query.Node_InsertStmt:
		x := n.InsertStmt
		w := one(WriteInsert, x.GetRelation())
		w.Columns = targetNames(x.GetCols())
		if oc := x.GetOnConflictClause(); oc != nil {
			w.Kind = WriteInsertOnConflict
			w.DoUpdate = oc.GetAction() == pg_query.OnConflictAction_ONCONFLICT_UPDATE
			for _, e := range oc.GetInfer().GetIndexElems() {
				if name := e.GetIndexElem().GetName(); name != "" {
					w.ConflictColumns = append(w.ConflictColumns, name)
				}
			}
		}
		switch {
		case s.Flags&dialect.InsertOverwrite != 0:
			w.Kind = WriteInsertOverwrite
			w.Partitioned = s.Flags&dialect.OverwritePartition != 0
		case s.Flags&dialect.ReplaceWhere != 0:
			w.Kind = WriteReplaceWhere
		}
		out = append(out, w)
	case *pg_query.Node_MergeStmt:
		w := one(WriteMerge, n.MergeStmt.GetRelation())
		for _, c := range n.MergeStmt.GetMergeWhenClauses() {
			if wc := c.GetMergeWhenClause(); isNotMatchedInsert(wc) && len(wc.GetTargetList()) > 0 {
				w.Columns = targetNames(wc.GetTargetList())
				break
			}
		}
		out = append(out, w)
	case *pg_query.Node_CreateTableAsStmt:
		x := n.CreateTableAsStmt
		if t := x.GetObjtype(); t == pg_query.ObjectType_OBJECT_TABLE || t == pg_query.ObjectType_OBJECT_MATVIEW {
			w := one(WriteCreateTableAs, x.GetInto().GetRel())
			w.Columns = stringValues(x.GetInto().GetColNames())
			out = append(out, w)
		}
	case *pg_query.Node_SelectStmt:
		if into := n.SelectStmt.GetIntoClause(); into != nil {
			out = append(out, one(WriteCreateTableAs, into.GetRel()))
		}
	case *pg_query.Node_CreateStmt:
		out = append(out, one(WriteCreateTable, n.CreateStmt.GetRelation()))
	case *pg_query.Node_DeleteStmt:
		w := one(WriteDelete, n.DeleteStmt.GetRelation())
		w.Where = n.DeleteStmt.GetWhereClause()
		out = append(out, w)
	case *pg_query.Node_UpdateStmt:
		w := one(WriteUpdate, n.UpdateStmt.GetRelation())
		w.Where = n.UpdateStmt.GetWhereClause()
		out = append(out, w)
	case *pg_query.Node_TruncateStmt:
		for _, r := range n.TruncateStmt.GetRelations() {
			w := one(WriteTruncate, r.GetRangeVar())
			w.Partitioned = s.Flags&dialect.TruncatePartition != 0
			out = append(out, w)
		}
	case *pg_query.Node_DropStmt:
		out = s.drops(base, n.DropStmt)
	case *pg_query.Node_CopyStmt:
		if x := n.CopyStmt; x.GetIsFrom() && x.GetRelation() != nil {
			out = append(out, one(WriteCopy, x.GetRelation()))
		}
	case *pg_query.Node_AlterTableStmt:
		// The SWAP WITH rewrite leaves ALTER TABLE a INHERIT b.
		cmds := n.AlterTableStmt.GetCmds()
		if s.Flags&dialect.SwapWith != 0 && len(cmds) == 1 {
			if other := cmds[0].GetAlterTableCmd().GetDef().GetRangeVar(); other != nil {
				out = append(out, one(WriteSwap, n.AlterTableStmt.GetRelation()), one(WriteSwap, other))
			}
		}
	}
	for i := range out {
		switch {
		case s.Flags&dialect.CopyInto != 0:
			out[i].Kind = WriteCopy
		case s.Flags&dialect.CreateOrReplace != 0 && (out[i].Kind == WriteCreateTableAs || out[i].Kind == WriteCreateTable):
			out[i].Kind = WriteCreateOrReplace
		}
	}
	return out
}

// target is the Relation of a written RangeVar; a name without a known
// position points at the statement keyword, so a finding always has a place.
func (s *Statement) target(rv *pg_query.RangeVar, keyword int) sqlname.Relation {
	if rv == nil {
		return sqlname.Relation{Offset: keyword}
	}
	r := relationOf(s, rv)
	if rv.GetLocation() < 0 {
		r.Offset = keyword
	}
	return r
}

var droppedTypes = map[pg_query.ObjectType]bool{
	pg_query.ObjectType_OBJECT_TABLE:         true,
	pg_query.ObjectType_OBJECT_VIEW:          true,
	pg_query.ObjectType_OBJECT_MATVIEW:       true,
	pg_query.ObjectType_OBJECT_FOREIGN_TABLE: true,
}

// drops lists the relations a DROP removes. pg_query keeps no position for
// DROP's names, so each is found again among the statement's tokens.
func (s *Statement) drops(base Write, x *pg_query.DropStmt) []Write {
	if !droppedTypes[x.GetRemoveType()] {
		return nil
	}
	code := s.codeTokens()
	from := 0
	var out []Write
	for _, obj := range x.GetObjects() {
		parts := stringValues(obj.GetList().GetItems())
		if len(parts) == 0 {
			continue
		}
		w := base
		w.Kind = WriteDrop
		w.Target = sqlname.Relation{Parts: parts, Offset: base.Offset}
		if i, written := findName(s.Text, code, from, parts); i >= 0 {
			w.Target = sqlname.Relation{Parts: written, Offset: s.Map.Orig(code[i].Start)}
			from = i + 1
		}
		out = append(out, w)
	}
	return out
}

// findName finds the tokens spelling parts (as the parser folded them) at
// or after code[from]; it returns the index of the first and the parts as
// written.
func findName(text string, code []sqltext.Token, from int, parts []string) (int, []string) {
	for i := from; i < len(code); i++ {
		if code[i].Kind != sqltext.Word && code[i].Kind != sqltext.QuotedIdent {
			continue
		}
		if written := readName(text[code[i].Start:]); sameName(written, parts) {
			return i, written
		}
	}
	return -1, nil
}

// keyword returns where the statement's own keyword is in the original
// text: its first token, or after WITH queries the keyword that follows the
// last one.
func (s *Statement) keyword() int {
	code := s.codeTokens()
	if len(code) == 0 || !strings.EqualFold(code[0].Text(s.Text), "WITH") {
		return s.Start
	}
	depth := 0
	for i, t := range code {
		switch t.Kind {
		case sqltext.Punct:
			switch s.Text[t.Start] {
			case '(':
				depth++
			case ')':
				depth--
			}
		case sqltext.Word:
			prev := code[max(i-1, 0)]
			if depth == 0 && prev.Kind == sqltext.Punct && s.Text[prev.Start] == ')' && mainKeywords[strings.ToUpper(t.Text(s.Text))] {
				return s.Map.Orig(t.Start)
			}
		}
	}
	return s.Start
}

var mainKeywords = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "VALUES": true, "TABLE": true}

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
			out = append(out, relationOf(s, rv))
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
				r := relationOf(s, rv)
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
		r := relationOf(s, x.RangeVar)
		return append(out, Join{Relation: r, Alias: qualifier(x.RangeVar), Inner: !nullable, CTE: sc.isCTE(x.RangeVar), On: on, Offset: r.Offset})
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
		r := relationOf(s, src.RangeVar)
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
		if wc := c.GetMergeWhenClause(); isNotMatchedInsert(wc) {
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

func isNotMatchedInsert(wc *pg_query.MergeWhenClause) bool {
	return wc != nil && !wc.GetMatched() && wc.GetCommandType() == pg_query.CmdType_CMD_INSERT
}

// mergeWhens finds the WHEN of each of the n clauses of a MERGE, since
// pg_query records no position for them: the clauses are the last n
// "WHEN [NOT] MATCHED" outside parentheses, which skips a CASE WHEN in ON.
// A clause whose WHEN is not found gets fallback.
func (s *Statement) mergeWhens(n, fallback int) []int {
	code := s.codeTokens()
	word := func(i int) string {
		if i >= len(code) || code[i].Kind != sqltext.Word {
			return ""
		}
		return strings.ToUpper(code[i].Text(s.Text))
	}
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
			found = append(found, s.Map.Orig(t.Start))
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

// Selects returns every SELECT in the statement, outer ones first: checks
// are often wrapped (SELECT count(*) FROM (SELECT key ... HAVING ...) d),
// so the shape a rule looks for may be at any depth.
func (s *Statement) Selects() []*pg_query.SelectStmt {
	var out []*pg_query.SelectStmt
	inspect(s.Node, func(m proto.Message, _ *scope) bool {
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
				if _, col := columnName(c); col != "" {
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
	op := opName(e)
	l, r := e.GetLexpr(), e.GetRexpr()
	if !isCountRows(l) {
		l, r = r, l
		op = flipped[op]
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
	inspect(n, func(m proto.Message, _ *scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.FuncCall:
			found = found || x.GetOver() == nil && aggregates[funcName(x)]
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

// flipped is the operator that keeps a comparison true when its sides swap.
var flipped = map[string]string{">": "<", "<": ">", ">=": "<=", "<=": ">=", "=": "=", "<>": "<>", "!=": "!="}

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

// scope is the set of WITH query names visible at a point of a statement.
type scope struct {
	ctes   []string
	parent *scope
}

// isCTE reports whether a FROM item names a visible WITH query rather than
// a stored relation; a qualified name never does.
func (sc *scope) isCTE(rv *pg_query.RangeVar) bool {
	if rv.GetSchemaname() != "" || rv.GetCatalogname() != "" {
		return false
	}
	for ; sc != nil; sc = sc.parent {
		if slices.Contains(sc.ctes, rv.GetRelname()) {
			return true
		}
	}
	return false
}

func (sc *scope) with(ctes []*pg_query.CommonTableExpr) *scope {
	inner := &scope{parent: sc}
	for _, c := range ctes {
		inner.ctes = append(inner.ctes, c.GetCtename())
	}
	return inner
}

// inspect calls visit for n and every message below it, parents first,
// fields in declaration order, with the WITH queries visible there; visit
// returns false to skip what lies below a message. A WITH query's body sees
// the queries before it, or all of them under WITH RECURSIVE.
func inspect(n proto.Message, visit func(proto.Message, *scope) bool) {
	if !isNil(n) {
		inspectScoped(n, nil, visit)
	}
}

// isNil reports whether m is nil or a nil pointer of a message type.
func isNil(m proto.Message) bool {
	return m == nil || !m.ProtoReflect().IsValid()
}

// inspectScoped is inspect below a message that is not nil.
func inspectScoped(m proto.Message, sc *scope, visit func(proto.Message, *scope) bool) {
	with := withClause(m)
	var ctes []*pg_query.CommonTableExpr
	for _, c := range with.GetCtes() {
		if cte := c.GetCommonTableExpr(); cte != nil {
			ctes = append(ctes, cte)
		}
	}
	outer := sc
	if len(ctes) > 0 {
		sc = outer.with(ctes)
	}
	if !visit(m, sc) {
		return
	}
	eachChild(m, func(child proto.Message) {
		if child != proto.Message(with) {
			inspectScoped(child, sc, visit)
			return
		}
		for j, cte := range ctes {
			body := sc
			if !with.GetRecursive() {
				body = outer.with(ctes[:j])
			}
			if q := cte.GetCtequery(); q != nil {
				inspectScoped(q, body, visit)
			}
		}
	})
}

// facts caches what the helpers derive from a statement: every rule asks
// for the same joins and writes, and a file shared by several plans is
// checked from several goroutines at once.
type facts struct {
	writesOnce, readsOnce, joinsOnce sync.Once
	writes                           []Write
	reads                            []sqlname.Relation
	joins                            []Join
}

// Walk calls visit for m and every message below it, parents first; visit
// returns false to skip what lies below a message. Rules use it for the
// questions the typed helpers do not answer.
func Walk(m proto.Message, visit func(proto.Message) bool) {
	if !isNil(m) {
		walkMessage(m, visit)
	}
}

func walkMessage(m proto.Message, visit func(proto.Message) bool) {
	if !visit(m) {
		return
	}
	eachChild(m, func(child proto.Message) {
		walkMessage(child, visit)
	})
}

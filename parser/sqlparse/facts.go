package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
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
	// Replaces is set for a MERGE ON FALSE that deletes with WHEN NOT
	// MATCHED BY SOURCE: it matches no row, so it deletes the target rows
	// its condition names and inserts every source row, replacing them in
	// one statement with no key to merge on (BigQuery's idiom).
	Replaces bool
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
		w.Replaces = s.Flags&dialect.MergeBySource != 0 && isFalse(n.MergeStmt.GetJoinCondition()) && deletesMatched(n.MergeStmt)
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
	r := relationOf(&s.Source, rv)
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
			w.Target = sqlname.Relation{Parts: written, Offset: s.Map.Orig(int(code[i].Start))}
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
				return s.Map.Orig(int(t.Start))
			}
		}
	}
	return s.Start
}

var mainKeywords = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "VALUES": true, "TABLE": true}

// isFalse reports whether n is the constant FALSE.
func isFalse(n *pg_query.Node) bool {
	b := n.GetAConst().GetBoolval()
	return b != nil && !b.GetBoolval()
}

// deletesMatched reports whether a MERGE deletes the rows its WHEN MATCHED
// clauses reach: under ON FALSE only a NOT MATCHED BY SOURCE clause,
// rewritten as WHEN MATCHED, reaches any.
func deletesMatched(m *pg_query.MergeStmt) bool {
	for _, c := range m.GetMergeWhenClauses() {
		if wc := c.GetMergeWhenClause(); wc.GetMatched() && wc.GetCommandType() == pg_query.CmdType_CMD_DELETE {
			return true
		}
	}
	return false
}

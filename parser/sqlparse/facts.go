package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// The facts below are read straight off pg_query's protobuf tree: rules ask
// small questions (what does this statement write, what does it join) and a
// second AST would only have to be kept in step with the parser's.

// Write returns what the statement writes; ok is false for a statement
// that writes no relation (a query, a transaction statement, a view).
// TRUNCATE and DROP may name several relations: Writes has them all.
func (s *Statement) Write() (w fact.Write, ok bool) {
	ws := s.Writes()
	if len(ws) == 0 {
		return fact.Write{}, false
	}
	return ws[0], true
}

// Writes returns one Write per relation the statement writes.
//
// CREATE VIEW and CREATE OR REPLACE VIEW are not writes: a view holds no
// rows, so replacing one neither loses nor duplicates data.
func (s *Statement) Writes() []fact.Write {
	s.facts.writesOnce.Do(func() { s.facts.writes = s.writes() })
	return s.facts.writes
}

func (s *Statement) writes() []fact.Write {
	if s.Node == nil {
		return nil
	}
	base := fact.Write{Offset: s.keyword()}
	one := func(kind fact.WriteKind, rv *pg_query.RangeVar) fact.Write {
		w := base
		w.Kind = kind
		w.Target = s.target(rv, w.Offset)
		w.Temporary = rv.GetRelpersistence() == "t"
		return w
	}
	var out []fact.Write
	switch n := s.Node.GetNode().(type) {
	case *pg_query.Node_InsertStmt:
		x := n.InsertStmt
		w := one(fact.WriteInsert, x.GetRelation())
		w.Columns = targetNames(x.GetCols())
		if oc := x.GetOnConflictClause(); oc != nil {
			w.Kind = fact.WriteInsertOnConflict
			w.DoUpdate = oc.GetAction() == pg_query.OnConflictAction_ONCONFLICT_UPDATE
			for _, e := range oc.GetInfer().GetIndexElems() {
				if name := e.GetIndexElem().GetName(); name != "" {
					w.ConflictColumns = append(w.ConflictColumns, name)
				}
			}
		}
		switch {
		case s.Flags&dialect.InsertOverwrite != 0:
			w.Kind = fact.WriteInsertOverwrite
			w.Partitioned = s.Flags&dialect.OverwritePartition != 0
		case s.Flags&dialect.ReplaceWhere != 0:
			w.Kind = fact.WriteReplaceWhere
		}
		out = append(out, w)
	case *pg_query.Node_MergeStmt:
		w := one(fact.WriteMerge, n.MergeStmt.GetRelation())
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
			w := one(fact.WriteCreateTableAs, x.GetInto().GetRel())
			w.Columns = stringValues(x.GetInto().GetColNames())
			out = append(out, w)
		}
	case *pg_query.Node_SelectStmt:
		if into := n.SelectStmt.GetIntoClause(); into != nil {
			out = append(out, one(fact.WriteCreateTableAs, into.GetRel()))
		}
	case *pg_query.Node_CreateStmt:
		out = append(out, one(fact.WriteCreateTable, n.CreateStmt.GetRelation()))
	case *pg_query.Node_DeleteStmt:
		w := one(fact.WriteDelete, n.DeleteStmt.GetRelation())
		w.Where = n.DeleteStmt.GetWhereClause()
		out = append(out, w)
	case *pg_query.Node_UpdateStmt:
		w := one(fact.WriteUpdate, n.UpdateStmt.GetRelation())
		w.Where = n.UpdateStmt.GetWhereClause()
		out = append(out, w)
	case *pg_query.Node_TruncateStmt:
		for _, r := range n.TruncateStmt.GetRelations() {
			w := one(fact.WriteTruncate, r.GetRangeVar())
			w.Partitioned = s.Flags&dialect.TruncatePartition != 0
			out = append(out, w)
		}
	case *pg_query.Node_DropStmt:
		out = s.drops(base, n.DropStmt)
	case *pg_query.Node_CopyStmt:
		if x := n.CopyStmt; x.GetIsFrom() && x.GetRelation() != nil {
			out = append(out, one(fact.WriteCopy, x.GetRelation()))
		}
	case *pg_query.Node_AlterTableStmt:
		// The SWAP WITH rewrite leaves ALTER TABLE a INHERIT b.
		cmds := n.AlterTableStmt.GetCmds()
		if s.Flags&dialect.SwapWith != 0 && len(cmds) == 1 {
			if other := cmds[0].GetAlterTableCmd().GetDef().GetRangeVar(); other != nil {
				out = append(out, one(fact.WriteSwap, n.AlterTableStmt.GetRelation()), one(fact.WriteSwap, other))
			}
		}
	}
	for i := range out {
		switch {
		case s.Flags&dialect.CopyInto != 0:
			out[i].Kind = fact.WriteCopy
		case s.Flags&dialect.CreateOrReplace != 0 && (out[i].Kind == fact.WriteCreateTableAs || out[i].Kind == fact.WriteCreateTable):
			out[i].Kind = fact.WriteCreateOrReplace
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
	r := fact.RelationOf(&s.Source, rv)
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
func (s *Statement) drops(base fact.Write, x *pg_query.DropStmt) []fact.Write {
	if !droppedTypes[x.GetRemoveType()] {
		return nil
	}
	code := s.codeTokens()
	from := 0
	var out []fact.Write
	for _, obj := range x.GetObjects() {
		parts := stringValues(obj.GetList().GetItems())
		if len(parts) == 0 {
			continue
		}
		w := base
		w.Kind = fact.WriteDrop
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
		if written := tree.ReadName(text[code[i].Start:]); tree.SameName(written, parts) {
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

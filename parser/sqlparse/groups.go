package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// KeepsOnePerGroup reports whether the statement numbers rows within
// groups and keeps the first of each: QUALIFY ROW_NUMBER() OVER (...) = 1,
// or ROW_NUMBER() OVER (...) AS rn in one query and WHERE rn = 1 in a
// query reading it. A join whose rows it reduces may match two versions
// of a dimension row without writing both.
func (s *Statement) KeepsOnePerGroup() bool {
	if s.Flags&dialect.Qualify != 0 {
		return true
	}
	if s.Node == nil {
		return false
	}
	numbered := map[string]bool{}
	tree.Walk(s.Node, func(m proto.Message) bool {
		if rt, ok := m.(*pg_query.ResTarget); ok && rt.GetName() != "" {
			if f := rt.GetVal().GetFuncCall(); f != nil && f.GetOver() != nil && tree.FuncName(f) == "row_number" {
				numbered[strings.ToLower(rt.GetName())] = true
			}
		}
		return true
	})
	if len(numbered) == 0 {
		return false
	}
	first := false
	tree.Walk(s.Node, func(m proto.Message) bool {
		e, ok := m.(*pg_query.A_Expr)
		if !ok || e.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP || (tree.OpName(e) != "=" && tree.OpName(e) != "<=") {
			return !first
		}
		for _, side := range [][2]*pg_query.Node{{e.GetLexpr(), e.GetRexpr()}, {e.GetRexpr(), e.GetLexpr()}} {
			c := side[0].GetColumnRef()
			v, isInt := intConst(side[1])
			if c == nil || !isInt || v != 1 || len(c.GetFields()) == 0 {
				continue
			}
			if numbered[strings.ToLower(c.GetFields()[len(c.GetFields())-1].GetString_().GetSval())] {
				first = true
			}
		}
		return !first
	})
	return first
}

package sqlparse

import (
	"sort"
	"strconv"

	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Bounds returns the comparisons of a column with a value that must all
// hold for n to be true: col op value, value op col (the operator turned
// to put the column on the left) and col BETWEEN a AND b (a >= and a <=
// bound). Only AND is followed: a bound under OR or NOT does not restrict
// the rows, so it is no bound. Casts, COLLATE and date conversions (date(),
// to_date(), date_trunc(), trunc()) around the column are looked through;
// comparisons between two columns are not bounds.
func Bounds(st *Statement, n *pg_query.Node) []fact.Bound {
	var out []fact.Bound
	add := func(col, qual, op string, value *pg_query.Node, at int) {
		out = append(out, fact.Bound{Column: col, Qualifier: qual, Op: op, Value: literal(st, value), Offset: at})
	}
	for _, c := range fact.Conjuncts(n) {
		e := c.GetAExpr()
		if e == nil {
			continue
		}
		at := st.Orig(exprStart(c))
		switch e.GetKind() {
		case pg_query.A_Expr_Kind_AEXPR_OP:
			op := tree.OpName(e)
			if !tree.BoundOps[op] {
				continue
			}
			if q, col := boundColumn(e.GetLexpr()); col != "" && isValue(e.GetRexpr()) {
				add(col, q, op, e.GetRexpr(), at)
			} else if q, col := boundColumn(e.GetRexpr()); col != "" && isValue(e.GetLexpr()) {
				add(col, q, tree.Flipped[op], e.GetLexpr(), at)
			}
		case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
			q, col := boundColumn(e.GetLexpr())
			ends := e.GetRexpr().GetList().GetItems()
			if col == "" || len(ends) != 2 {
				continue
			}
			if isValue(ends[0]) {
				add(col, q, ">=", ends[0], at)
			}
			if isValue(ends[1]) {
				add(col, q, "<=", ends[1], at)
			}
		}
	}
	return out
}

// boundColumn returns the column n compares, looking through casts and date
// conversions whose other arguments are constants; col is "" otherwise.
func boundColumn(n *pg_query.Node) (qual, col string) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return boundColumn(x.TypeCast.GetArg())
	case *pg_query.Node_CollateClause:
		return boundColumn(x.CollateClause.GetArg())
	case *pg_query.Node_ColumnRef:
		if tree.IsNowColumn(x.ColumnRef) || isParameter(x.ColumnRef) {
			return "", ""
		}
		return tree.ColumnName(x.ColumnRef)
	case *pg_query.Node_FuncCall:
		if !tree.DateConversions[tree.FuncName(x.FuncCall)] {
			return "", ""
		}
		for _, a := range x.FuncCall.GetArgs() {
			if _, ok := constText(a); ok {
				continue
			}
			if col != "" {
				return "", ""
			}
			if qual, col = boundColumn(a); col == "" {
				return "", ""
			}
		}
		return qual, col
	}
	return "", ""
}

// isValue reports whether n is a value rather than an expression over the
// row: it uses no column outside subqueries. SYSDATE and SYSTIMESTAMP parse
// as columns and are values, and so do query parameters (@ds), which
// normalisation keeps as quoted names.
func isValue(n *pg_query.Node) bool {
	if n == nil {
		return false
	}
	row := false
	tree.Inspect(n, func(m proto.Message, _ *tree.Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			row = row || !tree.IsNowColumn(x) && !isParameter(x)
		}
		return !row
	})
	return !row
}

// literal reads the value side of a bound.
func literal(st *Statement, n *pg_query.Node) fact.Literal {
	if calls := fact.ClockCallsIn(n, false); len(calls) > 0 {
		return fact.Literal{Kind: fact.LiteralNow, Text: calls[0].Name, Offset: st.Orig(calls[0].Loc)}
	}
	lit := fact.Literal{Offset: st.Orig(exprStart(n)), Parameter: readsParameter(n)}
	switch x := n.GetNode().(type) {
	case *pg_query.Node_AConst:
		switch x.AConst.GetVal().(type) {
		case *pg_query.A_Const_Sval:
			lit.Kind = fact.LiteralString
		case *pg_query.A_Const_Ival, *pg_query.A_Const_Fval:
			lit.Kind = fact.LiteralNumber
		}
		lit.Text, _ = constText(n)
	case *pg_query.Node_TypeCast:
		if text, ok := constText(x.TypeCast.GetArg()); ok {
			names := x.TypeCast.GetTypeName().GetNames()
			if len(names) > 0 {
				lit.Kind = fact.TypeKind(names[len(names)-1].GetString_().GetSval())
			}
			lit.Text = text
		}
	case *pg_query.Node_FuncCall:
		args := x.FuncCall.GetArgs()
		if len(args) == 0 || args[0].GetAConst().GetSval() == nil {
			break
		}
		switch tree.FuncName(x.FuncCall) {
		case "date", "to_date":
			lit.Kind = fact.LiteralDate
		case "timestamp", "to_timestamp", "datetime":
			lit.Kind = fact.LiteralTimestamp
		default:
			return lit
		}
		lit.Text = args[0].GetAConst().GetSval().GetSval()
	}
	return lit
}

// readsParameter reports whether an expression uses a query parameter,
// which the dialect rewrite leaves as a quoted identifier (@name, :name).
func readsParameter(n *pg_query.Node) bool {
	found := false
	tree.Walk(n, func(m proto.Message) bool {
		if ref, ok := m.(*pg_query.ColumnRef); ok {
			if fields := ref.GetFields(); len(fields) > 0 && sqltext.IsParameter(fields[len(fields)-1].GetString_().GetSval()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// constText returns the text of a constant, through casts of it.
func constText(n *pg_query.Node) (string, bool) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return constText(x.TypeCast.GetArg())
	case *pg_query.Node_AConst:
		switch v := x.AConst.GetVal().(type) {
		case *pg_query.A_Const_Sval:
			return v.Sval.GetSval(), true
		case *pg_query.A_Const_Ival:
			return strconv.FormatInt(int64(v.Ival.GetIval()), 10), true
		case *pg_query.A_Const_Fval:
			return v.Fval.GetFval(), true
		}
	}
	return "", false
}

// NowCalls returns the original offsets of every use of the time the
// statement runs in n, subqueries included: CURRENT_DATE,
// CURRENT_TIMESTAMP, LOCALTIMESTAMP, now(), getdate(), sysdate and the
// other warehouses' spellings. A predicate that uses one moves with the
// day it runs (BF102).
func NowCalls(st *Statement, n *pg_query.Node) []int {
	var out []int
	for _, c := range fact.ClockCallsIn(n, true) {
		out = append(out, st.Orig(c.Loc))
	}
	sort.Ints(out)
	return out
}

func isParameter(c *pg_query.ColumnRef) bool {
	fields := c.GetFields()
	return len(fields) == 1 && sqltext.IsParameter(fields[0].GetString_().GetSval())
}

// exprStart returns where an expression starts in the parsed text: the
// smallest location below it, since an operator's own location is the
// operator, not its left operand. -1 when nothing below has one.
func exprStart(n *pg_query.Node) int32 {
	start := int32(-1)
	tree.Inspect(n, func(m proto.Message, _ *tree.Scope) bool {
		if loc, ok := tree.Location(m); ok && loc >= 0 && (start < 0 || loc < start) {
			start = loc
		}
		return true
	})
	return start
}

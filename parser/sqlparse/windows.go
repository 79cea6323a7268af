package sqlparse

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/window"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// ReadWindow is a stored relation a query reads, and which of its
// partitions it reads for the one partition the query computes: the
// bounds its filter puts on a column of the relation, relative to the
// date parameter of the run.
type ReadWindow struct {
	Relation sqlname.Relation
	// Window is set when Bounded; an unbounded read leaves it Same.
	Window window.Window
	// Bounded is set when the filter bounds the relation on both sides
	// by the date parameter; Filtered when anything filters it at all
	// (an unfiltered read takes every partition).
	Bounded, Filtered bool
}

// ReadWindows returns, for each stored relation read in a query block,
// the window of its partitions read for the partition the run computes
// (whose date the query parameter param holds, "@submission_date"):
// from comparisons of a column of the relation with the parameter, moved
// by DATE_SUB/DATE_ADD/INTERVAL/DATEADD and truncated by DATE_TRUNC or
// LAST_DAY, in the query block that reads it (WHERE and ON). A relation
// read in several blocks appears once per block. Nothing for a statement
// that did not parse.
func (s *Statement) ReadWindows(param string) []ReadWindow {
	if s.Node == nil {
		return nil
	}
	var out []ReadWindow
	tree.Inspect(s.Node, func(m proto.Message, sc *tree.Scope) bool {
		sel, ok := m.(*pg_query.SelectStmt)
		if !ok || len(sel.GetFromClause()) == 0 {
			return true
		}
		var items []*pg_query.RangeVar
		quals := fact.Conjuncts(sel.GetWhereClause())
		for _, f := range sel.GetFromClause() {
			items, quals = fromItems(f, items, quals)
		}
		for _, rv := range items {
			if sc.IsCTE(rv) {
				continue
			}
			name := strings.ToLower(rv.GetRelname())
			if a := rv.GetAlias().GetAliasname(); a != "" {
				name = strings.ToLower(a)
			}
			rw := ReadWindow{Relation: fact.RelationOf(&s.Source, rv), Filtered: len(quals) > 0}
			lo, hi, okLo, okHi := windowBounds(quals, name, len(items) == 1, param)
			if okLo && okHi {
				rw.Window, rw.Bounded = window.Window{Lo: lo, Hi: hi}, true
			}
			out = append(out, rw)
		}
		return true
	})
	return out
}

// fromItems collects the stored relations and CTE names of a FROM item,
// and the conditions of its joins, not descending into subqueries.
func fromItems(n *pg_query.Node, items []*pg_query.RangeVar, quals []*pg_query.Node) ([]*pg_query.RangeVar, []*pg_query.Node) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_RangeVar:
		items = append(items, x.RangeVar)
	case *pg_query.Node_JoinExpr:
		items, quals = fromItems(x.JoinExpr.GetLarg(), items, quals)
		items, quals = fromItems(x.JoinExpr.GetRarg(), items, quals)
		quals = append(quals, fact.Conjuncts(x.JoinExpr.GetQuals())...)
	}
	return items, quals
}

// windowBounds finds the first lower and upper bound of a column of the
// relation named name (or of an unqualified column, when it is the only
// relation of its block) by the date parameter.
func windowBounds(quals []*pg_query.Node, name string, only bool, param string) (lo, hi window.Bound, okLo, okHi bool) {
	set := func(op string, b window.Bound) {
		switch op {
		case "=":
			if !okLo && !okHi {
				lo, hi, okLo, okHi = b, b, true, true
			}
		case ">=":
			if !okLo {
				lo, okLo = b, true
			}
		case ">":
			if !okLo {
				lo, okLo = b.Shift(1), true
			}
		case "<=":
			if !okHi {
				hi, okHi = b, true
			}
		case "<":
			if !okHi {
				hi, okHi = b.Shift(-1), true
			}
		}
	}
	ours := func(n *pg_query.Node) bool {
		q, col := boundColumn(n)
		return col != "" && (q == name || q == "" && only)
	}
	for _, c := range quals {
		e := c.GetAExpr()
		if e == nil {
			continue
		}
		switch e.GetKind() {
		case pg_query.A_Expr_Kind_AEXPR_OP:
			op := tree.OpName(e)
			if !tree.BoundOps[op] {
				continue
			}
			if ours(e.GetLexpr()) {
				if b, ok := dateBound(e.GetRexpr(), param); ok {
					set(op, b)
				}
			} else if ours(e.GetRexpr()) {
				if b, ok := dateBound(e.GetLexpr(), param); ok {
					set(tree.Flipped[op], b)
				}
			}
		case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
			ends := e.GetRexpr().GetList().GetItems()
			if !ours(e.GetLexpr()) || len(ends) != 2 {
				continue
			}
			if b, ok := dateBound(ends[0], param); ok {
				set(">=", b)
			}
			if b, ok := dateBound(ends[1], param); ok {
				set("<=", b)
			}
		}
	}
	return lo, hi, okLo, okHi
}

// dateBound reads an expression of the date parameter as a bound.
func dateBound(n *pg_query.Node, param string) (window.Bound, bool) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_ColumnRef:
		fields := x.ColumnRef.GetFields()
		if len(fields) == 1 && strings.EqualFold(fields[0].GetString_().GetSval(), param) {
			return window.Bound{}, true
		}
	case *pg_query.Node_TypeCast:
		return dateBound(x.TypeCast.GetArg(), param)
	case *pg_query.Node_AExpr:
		e := x.AExpr
		op := tree.OpName(e)
		if e.GetKind() != pg_query.A_Expr_Kind_AEXPR_OP || (op != "+" && op != "-") {
			break
		}
		b, ok := dateBound(e.GetLexpr(), param)
		if !ok {
			break
		}
		n, unit, ok := amount(e.GetRexpr())
		if !ok {
			break
		}
		if op == "-" {
			n = -n
		}
		return move(b, n, unit)
	case *pg_query.Node_FuncCall:
		return funcBound(x.FuncCall, param)
	}
	return window.Bound{}, false
}

func funcBound(f *pg_query.FuncCall, param string) (window.Bound, bool) {
	args := f.GetArgs()
	switch name := tree.FuncName(f); {
	case (name == "date" || name == "timestamp" || name == "datetime" || name == "to_date") && len(args) == 1:
		return dateBound(args[0], param)
	case (name == "date_sub" || name == "date_add" || name == "datetime_sub" || name == "datetime_add" || name == "timestamp_sub" || name == "timestamp_add") && len(args) == 2:
		b, ok := dateBound(args[0], param)
		n, unit, ok2 := amount(args[1])
		if !ok || !ok2 {
			break
		}
		if strings.HasSuffix(name, "_sub") {
			n = -n
		}
		return move(b, n, unit)
	case (name == "dateadd" || name == "date_add") && len(args) == 3:
		// Snowflake: DATEADD(day, -7, d).
		unit, n := wordOf(args[0]), 0
		v, ok := signedInt(args[1])
		b, ok2 := dateBound(args[2], param)
		if !ok || !ok2 {
			break
		}
		n = v
		return move(b, n, unit)
	case name == "date_trunc" && len(args) == 2:
		// BigQuery DATE_TRUNC(d, MONTH); elsewhere date_trunc('month', d).
		if b, ok := dateBound(args[0], param); ok {
			return trunc(b, wordOf(args[1]))
		}
		if b, ok := dateBound(args[1], param); ok {
			return trunc(b, wordOf(args[0]))
		}
	case name == "last_day" && (len(args) == 1 || len(args) == 2 && wordOf(args[1]) == "month"):
		if b, ok := dateBound(args[0], param); ok && b.Trunc == window.NoTrunc {
			b.Trunc = window.MonthEnd
			return b, true
		}
	}
	return window.Bound{}, false
}

// move adds n units to a bound: days and weeks to any bound, months only
// before a truncation.
func move(b window.Bound, n int, unit string) (window.Bound, bool) {
	switch unit {
	case "day", "days":
		return b.Shift(n), true
	case "week", "weeks":
		return b.Shift(7 * n), true
	case "month", "months", "year", "years":
		if b.Trunc != window.NoTrunc || b.Days != 0 {
			break
		}
		if unit[0] == 'y' {
			n *= 12
		}
		b.Months += n
		return b, true
	}
	return b, false
}

func trunc(b window.Bound, unit string) (window.Bound, bool) {
	if b.Trunc != window.NoTrunc {
		return b, false
	}
	switch {
	case unit == "month":
		b.Trunc = window.MonthStart
	case unit == "week" || unit == "isoweek" || strings.HasPrefix(unit, "week"):
		b.Trunc = window.WeekStart
	default:
		return b, false
	}
	return b, true
}

var intervalText = regexp.MustCompile(`^\s*(-?\d+)\s*([a-zA-Z]+)\s*$`)

// amount reads an interval (INTERVAL '27 DAY', as the dialect rewrite
// leaves it) or a bare number of days.
func amount(n *pg_query.Node) (int, string, bool) {
	if v, ok := signedInt(n); ok {
		return v, "day", true
	}
	if tc := n.GetTypeCast(); tc != nil {
		if text, ok := constText(tc.GetArg()); ok {
			if m := intervalText.FindStringSubmatch(text); m != nil {
				v, _ := strconv.Atoi(m[1])
				return v, strings.ToLower(m[2]), true
			}
		}
	}
	return 0, "", false
}

// signedInt is an integer constant, negated or not.
func signedInt(n *pg_query.Node) (int, bool) {
	if e := n.GetAExpr(); e != nil && tree.OpName(e) == "-" && e.GetLexpr() == nil {
		v, ok := intConst(e.GetRexpr())
		return -int(v), ok
	}
	v, ok := intConst(n)
	return int(v), ok
}

// wordOf is a unit written as a word (MONTH) or a string ('month').
func wordOf(n *pg_query.Node) string {
	if c := n.GetColumnRef(); c != nil && len(c.GetFields()) == 1 {
		return strings.ToLower(c.GetFields()[0].GetString_().GetSval())
	}
	if fc := n.GetFuncCall(); fc != nil {
		// WEEK(MONDAY)
		return tree.FuncName(fc)
	}
	if text, ok := constText(n); ok {
		return strings.ToLower(text)
	}
	return ""
}

var bitsFunction = regexp.MustCompile(`(?:^|_)(\d+)_bits|^bits(\d+)`)

// BitsDays returns the number of days of history a query carries forward
// in bit patterns (combine_adjacent_days_28_bits, shift_365_bits_one_day,
// bits28): a query that does reads its own previous partition and keeps
// each day's activity for that many days. 0 when it calls none.
func (s *Statement) BitsDays() int {
	if s.Node == nil {
		return 0
	}
	days := 0
	tree.Walk(s.Node, func(m proto.Message) bool {
		f, ok := m.(*pg_query.FuncCall)
		if !ok {
			return true
		}
		for _, part := range f.GetFuncname() {
			name := strings.ToLower(part.GetString_().GetSval())
			if !strings.Contains(name, "bits") {
				continue
			}
			if mm := bitsFunction.FindStringSubmatch(name); mm != nil {
				v, _ := strconv.Atoi(mm[1] + mm[2])
				days = max(days, v)
			}
		}
		return true
	})
	return days
}

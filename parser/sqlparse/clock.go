package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// ClockDecision is a use of the time a statement runs that decides which
// rows it produces: the clock compared with a column (in a filter, a join,
// or a condition in the select list such as IF(trial_end > CURRENT_DATE,
// ...)). A per-partition query that holds one computes partition D with
// the day it runs, not with D.
type ClockDecision struct {
	// Call is the clock's spelling (current_date, now, ...), Offset its
	// place in the original text.
	Call   string
	Offset int
	// Column is the column it is compared with, as written (qualifier
	// included).
	Column string
}

// ClockDecisions returns the uses of the clock that decide the rows the
// statement produces: from its parse tree, or for a statement the parser
// rejected, from the conditions of its queries and the select-list items
// using the clock that parse on their own (whether the query reads a live
// table is then not seen).
// Left out, as they decide nothing about a partition's rows: a clock that
// only fills a column (an audit column), one compared with nothing but
// constants and parameters, one that only picks between the clock and a
// query parameter (COALESCE(@date, CURRENT_DATE), IF(@date IS NULL, ...)),
// one under ERROR(...) (a guard that refuses a run), and one bounding a
// table of a live dataset (*_live.*), which keeps only the last days and
// is read beside its stable copy for the older ones.
func (s *Statement) ClockDecisions() []ClockDecision {
	s.facts.clockOnce.Do(func() { s.facts.clock = s.clockDecisions() })
	return s.facts.clock
}

func (s *Statement) clockDecisions() []ClockDecision {
	if s.Node != nil {
		return s.clockDecisionsUnder(s.Node, nil)
	}
	if s.Text == "" {
		return nil
	}
	return s.tokenClockDecisions()
}

// tokenClockDecisions reads ClockDecisions from the statement's tokens.
func (s *Statement) tokenClockDecisions() []ClockDecision {
	var out []ClockDecision
	for _, c := range s.TokenFacts().Conds {
		for _, cj := range c.Conjuncts {
			if cj.Node != nil && c.InQuery() {
				// The condition stands in a query block whose FROM the
				// tokens read apart.
				out = append(out, s.clockDecisionsUnder(cj.Node, []proto.Message{&pg_query.SelectStmt{}})...)
			}
		}
	}
	for _, n := range s.TokenFacts().Selected {
		out = append(out, s.clockDecisionsUnder(n, []proto.Message{&pg_query.SelectStmt{}})...)
	}
	return out
}

// clockDecisionsUnder reads the clock decisions below n, whose ancestors
// are stack.
func (s *Statement) clockDecisionsUnder(n proto.Message, stack []proto.Message) []ClockDecision {
	var out []ClockDecision
	var visit func(m proto.Message)
	visit = func(m proto.Message) {
		if call, loc, ok := clockCall(m); ok {
			if col, ok := decides(stack); ok {
				out = append(out, ClockDecision{Call: call, Offset: s.Orig(loc), Column: col})
			}
			return
		}
		stack = append(stack, m)
		tree.EachChild(m, visit)
		stack = stack[:len(stack)-1]
	}
	visit(n)
	return out
}

// clockCall reports whether m is a use of the current time.
func clockCall(m proto.Message) (string, int32, bool) {
	switch x := m.(type) {
	case *pg_query.SQLValueFunction:
		if name, ok := tree.NowValueFunctions[x.GetOp()]; ok {
			return name, x.GetLocation(), true
		}
	case *pg_query.FuncCall:
		if name := tree.FuncName(x); tree.NowFunctions[name] && (name != "unix_timestamp" || len(x.GetArgs()) == 0) {
			return name, x.GetLocation(), true
		}
	case *pg_query.ColumnRef:
		if tree.IsNowColumn(x) {
			return strings.ToLower(x.GetFields()[0].GetString_().GetSval()), x.GetLocation(), true
		}
	}
	return "", 0, false
}

// decides reads the ancestors of a clock call, nearest last: it decides
// rows when the nearest comparison above it compares it with a column,
// and nothing between it and its query block ties it to a parameter or
// a guard.
func decides(stack []proto.Message) (column string, ok bool) {
	var comparison *pg_query.A_Expr
	for i := len(stack) - 1; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *pg_query.SelectStmt:
			if comparison == nil || readsLiveTable(x) || (i > 0 && unionReadsLive(stack[i-1])) {
				return "", false
			}
			return comparedColumn(comparison)
		case *pg_query.A_Expr:
			if comparison == nil && (x.GetKind() == pg_query.A_Expr_Kind_AEXPR_BETWEEN || (x.GetKind() == pg_query.A_Expr_Kind_AEXPR_OP && tree.BoundOps[tree.OpName(x)])) {
				if readsParameter(&pg_query.Node{Node: &pg_query.Node_AExpr{AExpr: x}}) {
					return "", false
				}
				comparison = x
			}
		case *pg_query.FuncCall:
			switch name := tree.FuncName(x); {
			case name == "error":
				return "", false
			case conditionalFunctions[name] && funcReadsParameter(x):
				return "", false
			}
		case *pg_query.CaseExpr:
			if readsParameter(&pg_query.Node{Node: &pg_query.Node_CaseExpr{CaseExpr: x}}) {
				return "", false
			}
		case *pg_query.CoalesceExpr:
			if readsParameter(&pg_query.Node{Node: &pg_query.Node_CoalesceExpr{CoalesceExpr: x}}) {
				return "", false
			}
		case *pg_query.BoolExpr:
			if x.GetBoolop() == pg_query.BoolExprType_OR_EXPR && readsParameter(&pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: x}}) {
				// (@date IS NULL AND d < CURRENT_DATE) OR d = @date
				return "", false
			}
		}
	}
	return "", false
}

// conditionalFunctions choose between their arguments: with a parameter
// among them, the clock is the fallback when the parameter is not given.
var conditionalFunctions = map[string]bool{"if": true, "iff": true, "coalesce": true, "ifnull": true, "nvl": true, "nullif": true, "greatest": true, "least": true}

func funcReadsParameter(f *pg_query.FuncCall) bool {
	for _, a := range f.GetArgs() {
		if readsParameter(a) {
			return true
		}
	}
	return false
}

// comparedColumn returns the column a comparison compares the clock with.
func comparedColumn(e *pg_query.A_Expr) (string, bool) {
	var column string
	tree.Walk(e, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			if column == "" && !tree.IsNowColumn(x) && !isParameter(x) {
				var parts []string
				for _, f := range x.GetFields() {
					if s := f.GetString_(); s != nil {
						parts = append(parts, s.GetSval())
					}
				}
				column = strings.Join(parts, ".")
			}
		}
		return column == ""
	})
	return column, column != ""
}

// unionReadsLive reports whether m is a set operation one of whose
// branches reads a live table: its other branches read the stable copy
// for the days the live one no longer holds, and the clock splits them.
func unionReadsLive(m proto.Message) bool {
	sel, ok := m.(*pg_query.SelectStmt)
	if !ok || sel.GetOp() == pg_query.SetOperation_SETOP_NONE {
		return false
	}
	for _, branch := range []*pg_query.SelectStmt{sel.GetLarg(), sel.GetRarg()} {
		if branch != nil && (readsLiveTable(branch) || unionReadsLive(branch)) {
			return true
		}
	}
	return false
}

// readsLiveTable reports whether a query block reads a table of a live
// dataset (*_live.t), or a live table (*_live), in its FROM clause.
func readsLiveTable(sel *pg_query.SelectStmt) bool {
	live := false
	for _, item := range sel.GetFromClause() {
		tree.Walk(item, func(m proto.Message) bool {
			switch x := m.(type) {
			case *pg_query.SelectStmt:
				return false
			case *pg_query.RangeVar:
				if strings.HasSuffix(strings.ToLower(x.GetSchemaname()), "_live") || strings.HasSuffix(strings.ToLower(x.GetRelname()), "_live") {
					live = true
				}
			}
			return !live
		})
	}
	return live
}

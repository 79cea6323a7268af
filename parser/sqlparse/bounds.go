package sqlparse

import (
	"sort"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// LiteralKind says what a compared value denotes.
type LiteralKind int

const (
	// LiteralOther is a value bflint does not read: a parameter, a
	// subquery, arithmetic on a literal.
	LiteralOther     LiteralKind = iota
	LiteralDate                  // DATE '2026-01-14', '2026-01-14'::date, CAST(... AS DATE), DATE('...'), TO_DATE('...')
	LiteralTimestamp             // TIMESTAMP '...', DATETIME '...', casts and functions to a timestamp type
	// LiteralString is an untyped string: the column it is compared with
	// gives it its meaning, so '2026-01-14' may well be a date.
	LiteralString
	LiteralNumber // 20260114, 1.5, '20260114'::int
	// LiteralNow is an expression of the time the statement runs:
	// CURRENT_DATE - INTERVAL '1 day', date_sub(current_date, 1), now().
	LiteralNow
)

var literalKindNames = [...]string{
	LiteralOther:     "other",
	LiteralDate:      "date",
	LiteralTimestamp: "timestamp",
	LiteralString:    "string",
	LiteralNumber:    "number",
	LiteralNow:       "now",
}

func (k LiteralKind) String() string {
	if k >= 0 && int(k) < len(literalKindNames) {
		return literalKindNames[k]
	}
	return "LiteralKind(?)"
}

// Literal is the value side of a comparison.
type Literal struct {
	Kind LiteralKind
	// Text is the literal without quotes or type (2026-01-14); for
	// LiteralNow the name of the time function, in lower case; "" for
	// LiteralOther.
	Text string
	// Offset is where the literal starts (its DATE or CAST keyword
	// included), or for LiteralNow where the time function is.
	Offset int
	// Parameter is set for a value computed from a query parameter
	// (DATE_SUB(@submission_date, INTERVAL 3 DAY)): it moves with the date
	// each run is for, a backfill's past dates included.
	Parameter bool
}

// Bound is a comparison of a column with a value.
type Bound struct {
	// Column is the column's last part and Qualifier what comes before it
	// (an alias, a table), both in lower case.
	Column, Qualifier string
	// Op is ">=", ">", "<=", "<" or "=", read with the column on the left.
	Op     string
	Value  Literal
	Offset int // the start of the comparison
}

// Bounds returns the comparisons of a column with a value that must all
// hold for n to be true: col op value, value op col (the operator turned
// to put the column on the left) and col BETWEEN a AND b (a >= and a <=
// bound). Only AND is followed: a bound under OR or NOT does not restrict
// the rows, so it is no bound. Casts, COLLATE and date conversions (date(),
// to_date(), date_trunc(), trunc()) around the column are looked through;
// comparisons between two columns are not bounds.
func Bounds(st *Statement, n *pg_query.Node) []Bound {
	var out []Bound
	add := func(col, qual, op string, value *pg_query.Node, at int) {
		out = append(out, Bound{Column: col, Qualifier: qual, Op: op, Value: literal(st, value), Offset: at})
	}
	for _, c := range Conjuncts(n) {
		e := c.GetAExpr()
		if e == nil {
			continue
		}
		at := st.Orig(exprStart(c))
		switch e.GetKind() {
		case pg_query.A_Expr_Kind_AEXPR_OP:
			op := opName(e)
			if !boundOps[op] {
				continue
			}
			if q, col := boundColumn(e.GetLexpr()); col != "" && isValue(e.GetRexpr()) {
				add(col, q, op, e.GetRexpr(), at)
			} else if q, col := boundColumn(e.GetRexpr()); col != "" && isValue(e.GetLexpr()) {
				add(col, q, flipped[op], e.GetLexpr(), at)
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

var boundOps = map[string]bool{"=": true, "<": true, "<=": true, ">": true, ">=": true}

// dateConversions keep a column's order, so a bound on date(col) bounds col.
var dateConversions = map[string]bool{"date": true, "to_date": true, "date_trunc": true, "trunc": true, "timestamp_trunc": true, "datetime_trunc": true}

// boundColumn returns the column n compares, looking through casts and date
// conversions whose other arguments are constants; col is "" otherwise.
func boundColumn(n *pg_query.Node) (qual, col string) {
	switch x := n.GetNode().(type) {
	case *pg_query.Node_TypeCast:
		return boundColumn(x.TypeCast.GetArg())
	case *pg_query.Node_CollateClause:
		return boundColumn(x.CollateClause.GetArg())
	case *pg_query.Node_ColumnRef:
		if isNowColumn(x.ColumnRef) || isParameter(x.ColumnRef) {
			return "", ""
		}
		return columnName(x.ColumnRef)
	case *pg_query.Node_FuncCall:
		if !dateConversions[funcName(x.FuncCall)] {
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
	inspect(n, func(m proto.Message, _ *scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			row = row || !isNowColumn(x) && !isParameter(x)
		}
		return !row
	})
	return !row
}

// literal reads the value side of a bound.
func literal(st *Statement, n *pg_query.Node) Literal {
	if calls := nowCalls(n, false); len(calls) > 0 {
		return Literal{Kind: LiteralNow, Text: calls[0].name, Offset: st.Orig(calls[0].loc)}
	}
	lit := Literal{Offset: st.Orig(exprStart(n)), Parameter: readsParameter(n)}
	switch x := n.GetNode().(type) {
	case *pg_query.Node_AConst:
		switch x.AConst.GetVal().(type) {
		case *pg_query.A_Const_Sval:
			lit.Kind = LiteralString
		case *pg_query.A_Const_Ival, *pg_query.A_Const_Fval:
			lit.Kind = LiteralNumber
		}
		lit.Text, _ = constText(n)
	case *pg_query.Node_TypeCast:
		if text, ok := constText(x.TypeCast.GetArg()); ok {
			names := x.TypeCast.GetTypeName().GetNames()
			if len(names) > 0 {
				lit.Kind = typeKind(names[len(names)-1].GetString_().GetSval())
			}
			lit.Text = text
		}
	case *pg_query.Node_FuncCall:
		args := x.FuncCall.GetArgs()
		if len(args) == 0 || args[0].GetAConst().GetSval() == nil {
			break
		}
		switch funcName(x.FuncCall) {
		case "date", "to_date":
			lit.Kind = LiteralDate
		case "timestamp", "to_timestamp", "datetime":
			lit.Kind = LiteralTimestamp
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
	Walk(n, func(m proto.Message) bool {
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

// typeKind classifies a type name as the parser spells it (DATE stays
// "date", TIMESTAMP becomes "timestamp", TIMESTAMP WITH TIME ZONE
// "timestamptz", INTEGER "int4"), warehouse types included.
func typeKind(name string) LiteralKind {
	switch name = strings.ToLower(name); {
	case name == "date":
		return LiteralDate
	case strings.HasPrefix(name, "timestamp"), strings.HasPrefix(name, "datetime"), name == "smalldatetime":
		return LiteralTimestamp
	case name == "text", name == "varchar", name == "bpchar", name == "char", name == "string", name == "nvarchar":
		return LiteralString
	case strings.HasPrefix(name, "int"), strings.HasPrefix(name, "float"), name == "numeric", name == "decimal",
		name == "number", name == "bigint", name == "smallint", name == "tinyint", name == "real", name == "double":
		return LiteralNumber
	}
	return LiteralOther
}

func funcName(f *pg_query.FuncCall) string {
	names := f.GetFuncname()
	if len(names) == 0 {
		return ""
	}
	return strings.ToLower(names[len(names)-1].GetString_().GetSval())
}

// NowCalls returns the original offsets of every use of the time the
// statement runs in n, subqueries included: CURRENT_DATE,
// CURRENT_TIMESTAMP, LOCALTIMESTAMP, now(), getdate(), sysdate and the
// other warehouses' spellings. A predicate that uses one moves with the
// day it runs (BF102).
func NowCalls(st *Statement, n *pg_query.Node) []int {
	var out []int
	for _, c := range nowCalls(n, true) {
		out = append(out, st.Orig(c.loc))
	}
	sort.Ints(out)
	return out
}

type nowCall struct {
	name string
	loc  int32
}

var nowValueFunctions = map[pg_query.SQLValueFunctionOp]string{
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:        "current_date",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        "current_time",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      "current_time",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:   "current_timestamp",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "current_timestamp",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME:           "localtime",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         "localtime",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:      "localtimestamp",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    "localtimestamp",
}

// nowFunctions are called with parentheses; the SQL-standard keywords reach
// pg_query as SQLValueFunction, but warehouses also accept them as calls.
var nowFunctions = map[string]bool{
	"now": true, "getdate": true, "getutcdate": true, "sysdate": true, "systimestamp": true,
	"sysdatetime": true, "sysdatetimeoffset": true, "current_date": true, "current_timestamp": true,
	"current_time": true, "current_datetime": true, "localtimestamp": true, "localtime": true,
	"transaction_timestamp": true, "statement_timestamp": true, "clock_timestamp": true,
	"timeofday": true, "utc_timestamp": true, "utc_date": true, "curdate": true, "today": true,
	"unix_timestamp": true,
}

// IsClock reports whether a word of SQL (any case) is the time of the
// run: a keyword (CURRENT_DATE, SYSDATE), or a function (now, getdate)
// when call says it is called. For readers of text that was not parsed,
// such as a rendered incremental filter.
func IsClock(word string, call bool) bool {
	// Lowered on the stack: the readers ask of every word they read.
	var buf [24]byte
	if len(word) > len(buf) {
		return false // longer than any clock's name
	}
	for i := range len(word) {
		c := word[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	w := buf[:len(word)]
	if clockWords[string(w)] {
		return true
	}
	return call && nowFunctions[string(w)] && string(w) != "unix_timestamp"
}

// clockWords are the names that read the clock without parentheses.
var clockWords = func() map[string]bool {
	words := map[string]bool{"current_datetime": true}
	for w := range nowColumns {
		words[w] = true
	}
	for _, w := range nowValueFunctions {
		words[w] = true
	}
	return words
}()

// nowColumns are Oracle-style names used without parentheses, which
// PostgreSQL reads as column names.
var nowColumns = map[string]bool{"sysdate": true, "systimestamp": true}

func isNowColumn(c *pg_query.ColumnRef) bool {
	fields := c.GetFields()
	return len(fields) == 1 && nowColumns[strings.ToLower(fields[0].GetString_().GetSval())]
}

func isParameter(c *pg_query.ColumnRef) bool {
	fields := c.GetFields()
	return len(fields) == 1 && sqltext.IsParameter(fields[0].GetString_().GetSval())
}

// nowCalls finds uses of the current time in n, in subqueries too when
// intoSubqueries is set.
func nowCalls(n *pg_query.Node, intoSubqueries bool) []nowCall {
	var out []nowCall
	inspect(n, func(m proto.Message, _ *scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return intoSubqueries
		case *pg_query.SQLValueFunction:
			if name, ok := nowValueFunctions[x.GetOp()]; ok {
				out = append(out, nowCall{name, x.GetLocation()})
			}
		case *pg_query.FuncCall:
			// unix_timestamp(col) converts a column; only the bare call is now.
			if name := funcName(x); nowFunctions[name] && (name != "unix_timestamp" || len(x.GetArgs()) == 0) {
				out = append(out, nowCall{name, x.GetLocation()})
			}
		case *pg_query.ColumnRef:
			if isNowColumn(x) {
				out = append(out, nowCall{strings.ToLower(x.GetFields()[0].GetString_().GetSval()), x.GetLocation()})
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].loc < out[j].loc })
	return out
}

// exprStart returns where an expression starts in the parsed text: the
// smallest location below it, since an operator's own location is the
// operator, not its left operand. -1 when nothing below has one.
func exprStart(n *pg_query.Node) int32 {
	start := int32(-1)
	inspect(n, func(m proto.Message, _ *scope) bool {
		if loc, ok := location(m); ok && loc >= 0 && (start < 0 || loc < start) {
			start = loc
		}
		return true
	})
	return start
}

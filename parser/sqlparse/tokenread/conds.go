package tokenread

import (
	"strings"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// cond reads the condition between code[i] and code[end]: parsed whole
// when it can be, else split at its top-level AND with each part parsed
// alone, and a part that still does not parse read from its tokens.
func (sc *tokenScan) cond(i, end int, sub, top bool) fact.Cond {
	c := fact.Cond{Sub: sub, Top: top}
	end = min(end, len(sc.Code))
	if i >= end {
		return c
	}
	if n := sc.parseExpr(i, end); n != nil {
		for _, x := range fact.Conjuncts(n) {
			c.Conjuncts = append(c.Conjuncts, fact.Conjunct{Node: x})
		}
	} else {
		for _, sp := range sc.split(i, end) {
			cj := fact.Conjunct{Node: sc.parseExpr(sp[0], sp[1])}
			if cj.Node == nil {
				sc.readConjunct(&cj, sp[0], sp[1])
			}
			c.Conjuncts = append(c.Conjuncts, cj)
		}
	}
	sc.tf.Conds = append(sc.tf.Conds, c)
	return c
}

// split cuts a condition at the AND of its top level, skipping the AND of
// BETWEEN and those inside CASE; a condition with an OR at its top level
// is one part, since AND binds tighter.
func (sc *tokenScan) split(i, end int) [][2]int {
	var out [][2]int
	start, cases, between := i, 0, false
	for k := i; k < end; k++ {
		if sc.open(k) {
			k = sc.close(k, end)
			continue
		}
		switch sc.Word(k) {
		case "CASE":
			cases++
		case "END":
			cases = max(cases-1, 0)
		case "BETWEEN":
			between = cases == 0
		case "OR":
			if cases == 0 {
				return [][2]int{{i, end}}
			}
		case "AND":
			switch {
			case cases > 0:
			case between:
				between = false
			default:
				if k > start {
					out = append(out, [2]int{start, k})
				}
				start = k + 1
			}
		}
	}
	if end > start {
		out = append(out, [2]int{start, end})
	}
	return out
}

// exprPrefix makes a condition the WHERE of a query of its own.
const exprPrefix = "SELECT 1 WHERE "

// parseExpr parses the expression between code[i] and code[end] on its
// own and moves its locations to offsets of the statement's Text; nil when
// it does not parse as one expression, is past the limits a statement is
// parsed under, or the statement has used up maxExprParses.
func (sc *tokenScan) parseExpr(i, end int) *pg_query.Node {
	if i >= end || end > len(sc.Code) || *sc.parses >= maxExprParses {
		return nil
	}
	*sc.parses++
	start := int(sc.Code[i].Start)
	frag := sc.Src[start:sc.Code[end-1].End]
	if len(frag) > tree.MaxStatementBytes || !utf8.ValidString(frag) {
		return nil
	}
	depth := 0
	for k := i; k < end; k++ {
		switch {
		case sc.open(k):
			if depth++; depth > tree.MaxNesting {
				return nil
			}
		case sc.Punct(k, ')') || sc.Punct(k, ']'):
			depth--
		case sc.Punct(k, ';'):
			return nil
		}
	}
	res, err := pg_query.Parse(exprPrefix + frag)
	if err != nil || len(res.Stmts) != 1 {
		return nil
	}
	sel := res.Stmts[0].Stmt.GetSelectStmt()
	where := sel.GetWhereClause()
	if where == nil || len(sel.GetTargetList()) != 1 || len(sel.GetFromClause()) > 0 || len(sel.GetGroupClause()) > 0 ||
		sel.GetHavingClause() != nil || len(sel.GetWindowClause()) > 0 || len(sel.GetSortClause()) > 0 ||
		sel.GetLimitCount() != nil || sel.GetLimitOffset() != nil || len(sel.GetLockingClause()) > 0 ||
		sel.GetIntoClause() != nil || sel.GetOp() != pg_query.SetOperation_SETOP_NONE {
		return nil
	}
	shiftLocations(where, int32(start-len(exprPrefix)))
	return where
}

// shiftLocations adds delta to every known location below n.
func shiftLocations(n proto.Message, delta int32) {
	tree.Walk(n, func(m proto.Message) bool {
		if loc, ok := tree.Location(m); ok && loc >= 0 {
			tree.SetLocation(m, loc+delta)
		}
		return true
	})
}

// readConjunct reads from its tokens a conjunct that does not parse: the
// columns it uses, its uses of the current time, and the comparison of a
// column with a value it makes.
func (sc *tokenScan) readConjunct(cj *fact.Conjunct, i, end int) {
	for k := i; k < end; k++ {
		if k > i && sc.Punct(k-1, '.') {
			continue
		}
		if at, ok := sc.nowAt(k, end); ok {
			cj.Now = append(cj.Now, at)
			continue
		}
		qual, col, e := sc.column(k, end)
		if col == "" {
			continue
		}
		cj.Columns = append(cj.Columns, col)
		if qual == "" {
			cj.Bare = true
		} else {
			cj.Quals = append(cj.Quals, qual)
		}
		k = e - 1
	}
	cj.Bounds = sc.tokenBounds(i, end)
}

// nowAt reports whether code[k] is a use of the current time, and where
// it stands in the original text.
func (sc *tokenScan) nowAt(k, end int) (int, bool) {
	if sc.Kind(k) != sqltext.Word || k > 0 && sc.Punct(k-1, '.') {
		return 0, false
	}
	w := strings.ToLower(sc.Code[k].Text(sc.Src))
	called := sc.Punct(k+1, '(') && k+1 < end
	switch {
	case w == "unix_timestamp":
		if !called || !sc.Punct(k+2, ')') {
			return 0, false
		}
	case called && tree.NowFunctions[w], !called && bareNow[w]:
	default:
		return 0, false
	}
	return sc.orig(k), true
}

// bareNow are the names of the current time written without brackets.
var bareNow = map[string]bool{
	"current_date": true, "current_timestamp": true, "current_time": true, "current_datetime": true,
	"localtime": true, "localtimestamp": true, "sysdate": true, "systimestamp": true,
}

// column reads a column reference at code[k]: qualifier (the part before
// the column, lower case; "" for none), column (lower case) and the index
// after it. col is "" when no column stands there: a keyword, a type, a
// function name, a value.
func (sc *tokenScan) column(k, end int) (qual, col string, next int) {
	if k > 0 && sc.Op(k-1) == "::" || sc.Word(k-1) == "AS" {
		return "", "", k + 1
	}
	parts, e, _ := sc.name(k)
	if e == k || e > end || sc.Punct(e, '(') || sc.Punct(e, '.') {
		return "", "", k + 1
	}
	if len(parts) == 1 && (sc.Kind(k) == sqltext.Word && notColumns[strings.ToUpper(parts[0])] || sqltext.IsParameter(parts[0])) {
		return "", "", k + 1
	}
	col = strings.ToLower(parts[len(parts)-1])
	if len(parts) > 1 {
		qual = strings.ToLower(parts[len(parts)-2])
	}
	return qual, col, e
}

// notColumns are the words of a condition that are not columns.
var notColumns = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "NULL": true, "IS": true, "IN": true, "BETWEEN": true, "LIKE": true,
	"ILIKE": true, "RLIKE": true, "REGEXP": true, "SIMILAR": true, "ESCAPE": true, "TRUE": true, "FALSE": true,
	"UNKNOWN": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "CAST": true,
	"EXISTS": true, "ANY": true, "ALL": true, "SOME": true, "DISTINCT": true, "INTERVAL": true, "DATE": true,
	"TIME": true, "TIMESTAMP": true, "DATETIME": true, "DAY": true, "DAYS": true, "MONTH": true, "MONTHS": true,
	"YEAR": true, "YEARS": true, "HOUR": true, "HOURS": true, "MINUTE": true, "MINUTES": true, "SECOND": true,
	"SECONDS": true, "WEEK": true, "WEEKS": true, "QUARTER": true, "AT": true, "ZONE": true, "WITH": true,
	"WITHOUT": true, "COLLATE": true, "OVER": true, "PARTITION": true, "BY": true, "ORDER": true, "ASC": true,
	"DESC": true, "NULLS": true, "FIRST": true, "LAST": true, "FILTER": true, "WITHIN": true, "GROUP": true,
	"ROWS": true, "RANGE": true, "PRECEDING": true, "FOLLOWING": true, "UNBOUNDED": true, "CURRENT": true,
	"ROW": true, "SELECT": true, "FROM": true, "WHERE": true, "ARRAY": true, "STRUCT": true, "AS": true,
}

// tokenBounds reads the comparison of a conjunct that does not parse:
// col op value, value op col, or col BETWEEN a AND b, outside brackets. A
// comparison under OR restricts no rows, so it is no bound.
func (sc *tokenScan) tokenBounds(i, end int) []fact.Bound {
	if sc.indexWord(i, end, "OR") >= 0 {
		return nil
	}
	at := sc.orig(i)
	for k := i; k < end; k++ {
		if sc.open(k) {
			k = sc.close(k, end)
			continue
		}
		if sc.Word(k) == "BETWEEN" {
			and := sc.indexWord(k+1, end, "AND")
			q, col := sc.sideColumn(i, k)
			if col == "" || and < 0 || sc.Word(k-1) == "NOT" {
				return nil
			}
			var out []fact.Bound
			if v, ok := sc.value(k+1, and); ok {
				out = append(out, fact.Bound{Column: col, Qualifier: q, Op: ">=", Value: v, Offset: at})
			}
			if v, ok := sc.value(and+1, end); ok {
				out = append(out, fact.Bound{Column: col, Qualifier: q, Op: "<=", Value: v, Offset: at})
			}
			return out
		}
		op := sc.Op(k)
		if !tree.BoundOps[op] {
			continue
		}
		if q, col := sc.sideColumn(i, k); col != "" {
			if v, ok := sc.value(k+1, end); ok {
				return []fact.Bound{{Column: col, Qualifier: q, Op: op, Value: v, Offset: at}}
			}
		}
		if q, col := sc.sideColumn(k+1, end); col != "" {
			if v, ok := sc.value(i, k); ok {
				return []fact.Bound{{Column: col, Qualifier: q, Op: tree.Flipped[op], Value: v, Offset: at}}
			}
		}
		return nil
	}
	return nil
}

// sideColumn returns the one column code[i:end] compares, through casts
// and date conversions; "" when it holds no column or more than one, or
// calls something else.
func (sc *tokenScan) sideColumn(i, end int) (qual, col string) {
	for k := i; k < end; k++ {
		if sc.Punct(k, '(') && !(k > i && (tree.DateConversions[strings.ToLower(sc.Code[k-1].Text(sc.Src))] || sc.Word(k-1) == "CAST")) {
			return "", ""
		}
		q, c, e := sc.column(k, end)
		if c == "" {
			continue
		}
		if col != "" {
			return "", ""
		}
		qual, col, k = q, c, e-1
	}
	return qual, col
}

// value reads code[i:end] as the value side of a comparison: nothing in
// it may be a column.
func (sc *tokenScan) value(i, end int) (fact.Literal, bool) {
	if i >= end {
		return fact.Literal{}, false
	}
	lit := fact.Literal{Offset: sc.orig(i)}
	for k := i; k < end; k++ {
		if at, ok := sc.nowAt(k, end); ok {
			if lit.Kind != fact.LiteralNow {
				lit = fact.Literal{Kind: fact.LiteralNow, Text: strings.ToLower(sc.Code[k].Text(sc.Src)), Offset: at}
			}
			continue
		}
		if _, c, _ := sc.column(k, end); c != "" {
			return fact.Literal{}, false
		}
	}
	if lit.Kind == fact.LiteralNow {
		return lit, true
	}
	t := sc.Code[i]
	switch {
	case end-i == 1 && t.Kind == sqltext.String:
		lit.Kind, lit.Text = fact.LiteralString, unquoteString(t.Text(sc.Src))
	case end-i == 1 && t.Kind == sqltext.Number:
		lit.Kind, lit.Text = fact.LiteralNumber, t.Text(sc.Src)
	case end-i == 2 && sc.Kind(i+1) == sqltext.String && (sc.Word(i) == "DATE" || sc.Word(i) == "TIMESTAMP"):
		lit.Kind, lit.Text = fact.TypeKind(sc.Word(i)), unquoteString(sc.Code[i+1].Text(sc.Src))
	case end-i == 3 && t.Kind == sqltext.String && sc.Op(i+1) == "::" && sc.Kind(i+2) == sqltext.Word:
		lit.Kind, lit.Text = fact.TypeKind(sc.Code[i+2].Text(sc.Src)), unquoteString(t.Text(sc.Src))
	}
	return lit, true
}

// unquoteString returns the content of a plain '...' string.
func unquoteString(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// columns records the statement's qualified column references: dotted
// names that are no relation, function or star.
func (sc *tokenScan) columns() {
	for k := range sc.Code {
		if sc.names[k] || k > 0 && sc.Punct(k-1, '.') {
			continue
		}
		qual, col, _ := sc.column(k, len(sc.Code))
		if qual == "" {
			continue
		}
		if sc.tf.Columns[qual] == nil {
			sc.tf.Columns[qual] = map[string]bool{}
		}
		sc.tf.Columns[qual][col] = true
	}
}

// selectClocks parses on their own the items of the select list that
// starts at code[i] and use the clock, for ClockDecisions: IF(d <
// CURRENT_DATE, a, b) decides a value by the day of the run as a WHERE
// decides rows.
func (sc *tokenScan) selectClocks(i, to int) {
	end := i
	for ; end < to; end++ {
		if sc.open(end) {
			end = sc.close(end, to)
			continue
		}
		if sc.Punct(end, ';') || sc.Kind(end) == sqltext.Word && (sqltext.EndsSelectList(sc.Word(end)) || tokenSetOperators[sc.Word(end)]) {
			break
		}
	}
	for _, item := range sc.selectItems(i, end) {
		from, to := item[0], item[1]
		if to-from >= 3 && sc.Word(to-2) == "AS" {
			to -= 2
		}
		clock := false
		for k := from; k < to && !clock; k++ {
			clock = sc.Kind(k) == sqltext.Word && fact.IsClock(sc.Code[k].Text(sc.Src), sc.Punct(k+1, '('))
		}
		if clock {
			if n := sc.parseExpr(from, to); n != nil {
				sc.tf.Selected = append(sc.tf.Selected, n)
			}
		}
	}
}

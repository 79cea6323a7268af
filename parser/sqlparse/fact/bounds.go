package fact

import (
	"sort"
	"strings"

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

var BoundOps = map[string]bool{"=": true, "<": true, "<=": true, ">": true, ">=": true}

// dateConversions keep a column's order, so a bound on date(col) bounds col.
var DateConversions = map[string]bool{"date": true, "to_date": true, "date_trunc": true, "trunc": true, "timestamp_trunc": true, "datetime_trunc": true}

// typeKind classifies a type name as the parser spells it (DATE stays
// "date", TIMESTAMP becomes "timestamp", TIMESTAMP WITH TIME ZONE
// "timestamptz", INTEGER "int4"), warehouse types included.
func TypeKind(name string) LiteralKind {
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

func FuncName(f *pg_query.FuncCall) string {
	names := f.GetFuncname()
	if len(names) == 0 {
		return ""
	}
	return strings.ToLower(names[len(names)-1].GetString_().GetSval())
}

type nowCall struct {
	Name string
	Loc  int32
}

var NowValueFunctions = map[pg_query.SQLValueFunctionOp]string{
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
var NowFunctions = map[string]bool{
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
	return call && NowFunctions[string(w)] && string(w) != "unix_timestamp"
}

// clockWords are the names that read the clock without parentheses.
var clockWords = func() map[string]bool {
	words := map[string]bool{"current_datetime": true}
	for w := range nowColumns {
		words[w] = true
	}
	for _, w := range NowValueFunctions {
		words[w] = true
	}
	return words
}()

// nowColumns are Oracle-style names used without parentheses, which
// PostgreSQL reads as column names.
var nowColumns = map[string]bool{"sysdate": true, "systimestamp": true}

func IsNowColumn(c *pg_query.ColumnRef) bool {
	fields := c.GetFields()
	return len(fields) == 1 && nowColumns[strings.ToLower(fields[0].GetString_().GetSval())]
}

// clockCallsIn finds uses of the current time in n, in subqueries too when
// intoSubqueries is set.
func ClockCallsIn(n *pg_query.Node, intoSubqueries bool) []nowCall {
	var out []nowCall
	Inspect(n, func(m proto.Message, _ *Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return intoSubqueries
		case *pg_query.SQLValueFunction:
			if name, ok := NowValueFunctions[x.GetOp()]; ok {
				out = append(out, nowCall{name, x.GetLocation()})
			}
		case *pg_query.FuncCall:
			// unix_timestamp(col) converts a column; only the bare call is now.
			if name := FuncName(x); NowFunctions[name] && (name != "unix_timestamp" || len(x.GetArgs()) == 0) {
				out = append(out, nowCall{name, x.GetLocation()})
			}
		case *pg_query.ColumnRef:
			if IsNowColumn(x) {
				out = append(out, nowCall{strings.ToLower(x.GetFields()[0].GetString_().GetSval()), x.GetLocation()})
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Loc < out[j].Loc })
	return out
}

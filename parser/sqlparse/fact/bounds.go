package fact

import (
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
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

// TypeKind classifies a type name as the parser spells it (DATE stays
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

// ClockCall is a use of the current time in a parse tree: the function or
// keyword, in lower case, and its location.
type ClockCall struct {
	Name string
	Loc  int32
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
	return call && tree.NowFunctions[string(w)] && string(w) != "unix_timestamp"
}

// clockWords are the names that read the clock without parentheses.
var clockWords = func() map[string]bool {
	words := map[string]bool{"current_datetime": true}
	for w := range tree.NowColumns {
		words[w] = true
	}
	for _, w := range tree.NowValueFunctions {
		words[w] = true
	}
	return words
}()

// ClockCallsIn finds uses of the current time in n, in subqueries too when
// intoSubqueries is set.
func ClockCallsIn(n *pg_query.Node, intoSubqueries bool) []ClockCall {
	var out []ClockCall
	tree.Inspect(n, func(m proto.Message, _ *tree.Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return intoSubqueries
		case *pg_query.SQLValueFunction:
			if name, ok := tree.NowValueFunctions[x.GetOp()]; ok {
				out = append(out, ClockCall{name, x.GetLocation()})
			}
		case *pg_query.FuncCall:
			// unix_timestamp(col) converts a column; only the bare call is now.
			if name := tree.FuncName(x); tree.NowFunctions[name] && (name != "unix_timestamp" || len(x.GetArgs()) == 0) {
				out = append(out, ClockCall{name, x.GetLocation()})
			}
		case *pg_query.ColumnRef:
			if tree.IsNowColumn(x) {
				out = append(out, ClockCall{strings.ToLower(x.GetFields()[0].GetString_().GetSval()), x.GetLocation()})
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Loc < out[j].Loc })
	return out
}

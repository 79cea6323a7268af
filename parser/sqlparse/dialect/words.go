package dialect

import "github.com/bflint/bflint/parser/sqlparse/sqltext"

// Words PostgreSQL reserves that warehouses use as names: where one is a
// table, an alias or a column.

// reservedName reports whether the reserved word at i stands for a name:
// a qualifier (table.col), or the alias of a FROM item (FROM t table
// WHERE ..., FROM t AS user JOIN ...).
func (d *dialect) reservedName(i int) bool {
	if d.Punct(i+1, '.') && d.touch(i, i+1) {
		return i == 0 || !d.Punct(i-1, '.')
	}
	if i == 0 || !aliasStops[d.Word(i+1)] && !d.Punct(i+1, ',') && !d.Punct(i+1, ')') && !d.Punct(i+1, ';') && i+1 < len(d.Code) {
		return false
	}
	switch d.Kind(i - 1) {
	case sqltext.Backtick, sqltext.QuotedIdent:
		return true
	case sqltext.Word:
		return d.Word(i-1) == "AS" || !beforeTableKeyword[d.Word(i-1)]
	}
	return false
}

// reservedColumns are words PostgreSQL reserves that BigQuery or
// Snowflake tables use as column names (a transfer's to, a test's check,
// a plan's limit, a constraint's primary). columnWord tells where one is a
// column.
var reservedColumns = map[string]bool{
	"TO": true, "CHECK": true, "PRIMARY": true, "COLUMN": true, "UNIQUE": true, "FOREIGN": true, "REFERENCES": true,
	"CONSTRAINT": true, "ONLY": true, "LIMIT": true, "OFFSET": true, "END": true, "OVERLAPS": true,
	"BOTH": true, "LEADING": true, "TRAILING": true, "PLACING": true, "RETURNING": true, "VARIADIC": true,
	"SYMMETRIC": true, "ASYMMETRIC": true, "INITIALLY": true, "DEFERRABLE": true,
}

// columnWord reports whether the reserved word at i is a column of an
// expression: it stands where an operand starts (after SELECT, WHERE, a
// comma, an opening bracket, an operator, AS) and an operand's end follows
// it (an operator, a comma, a closing bracket, AS, FROM, IS, IN ..., the
// end of the text); or it names a WITH query (WITH overlaps AS (...),
// FROM overlaps), or a column of a select list without AS. As keywords these words follow a
// name or a unit (GRANT ... TO r, RENAME TO, DAY TO SECOND, ORDER BY x
// LIMIT 5, CASE ... END) or open something (CHECK (...), PRIMARY KEY,
// LIMIT 5).
func (d *dialect) columnWord(i int) bool {
	if i == 0 {
		return false
	}
	if w := d.Word(i); w == "BOTH" || w == "LEADING" || w == "TRAILING" {
		if o := d.parent.At(i); o > 0 && d.Word(o-1) == "TRIM" {
			return false // TRIM(LEADING '0' FROM x)
		}
	}
	prev, next := d.Code[i-1], d.Kind(i+1)
	starts := prev.Kind == sqltext.Operator && d.Op(i-1) != "::" || d.Punct(i-1, ',') || d.Punct(i-1, '(') ||
		prev.Kind == sqltext.Word && (operandStarts[d.Word(i-1)] || d.Word(i-1) == "AS")
	ends := i+1 == len(d.Code) || next == sqltext.Operator && d.Op(i+1) != "=>" || d.Punct(i+1, ',') || d.Punct(i+1, ')') || d.Punct(i+1, ';') ||
		operandEnds[d.Word(i+1)] && next == sqltext.Word
	switch w := d.Word(i - 1); {
	case (w == "WITH" || w == "RECURSIVE") && d.Word(i+1) == "AS" && d.Punct(i+2, '('):
		return true
	case (w == "FROM" || w == "JOIN") && d.Word(i) != "ONLY":
		// A WITH query of that name read (PostgreSQL's FROM ONLY t is
		// its own).
		return ends || aliasStops[d.Word(i+1)] || d.aliasToken(i+1)
	}
	return starts && ends || d.selectAlias(i)
}

// selectAlias reports whether the reserved word at i names a column of a
// select list without AS (SELECT a primary, b FROM t): a value ends before
// it, a comma or FROM follows, and SELECT begins the list it stands in.
// END and the words a clause may end with (ONLY, LIMIT, OFFSET) never
// are, as CASE ... END, and the others only outside a column's
// definition.
func (d *dialect) selectAlias(i int) bool {
	switch d.Word(i) {
	case "END", "ONLY", "LIMIT", "OFFSET":
		return false
	}
	if !d.Punct(i+1, ',') && d.Word(i+1) != "FROM" {
		return false
	}
	switch d.Kind(i - 1) {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.Number, sqltext.String:
	case sqltext.Word:
		if w := d.Word(i - 1); operandStarts[w] || exprKeywords[w] || notNames[w] || aliasStops[w] || reservedColumns[w] {
			return false
		}
	default:
		if !d.Punct(i-1, ')') {
			return false
		}
	}
	for k := i - 1; k > d.parent.At(i) && k >= 0; k-- {
		switch {
		case d.Punct(k, ')') && d.match.At(k) >= 0:
			k = d.match.At(k)
		case d.Punct(k, ';'):
			return false
		case d.Word(k) == "SELECT":
			return true
		case d.Kind(k) == sqltext.Word && (sqltext.EndsSelectList(d.Word(k)) || d.Word(k) == "CASE" || d.Word(k) == "ON" || d.Word(k) == "BY"):
			return false
		}
	}
	return false
}

var (
	operandStarts = map[string]bool{"SELECT": true, "WHERE": true, "AND": true, "OR": true, "ON": true, "NOT": true, "BY": true, "WHEN": true, "THEN": true, "ELSE": true, "HAVING": true, "DISTINCT": true}
	operandEnds   = map[string]bool{"AS": true, "FROM": true, "IS": true, "IN": true, "NOT": true, "AND": true, "OR": true, "BETWEEN": true, "LIKE": true, "ILIKE": true, "THEN": true, "WHEN": true, "ELSE": true, "END": true, "ASC": true, "DESC": true, "WHERE": true, "GROUP": true, "ORDER": true}
)

// beforeTableKeyword are the words after which TABLE or USER is the
// keyword, not a name.
var beforeTableKeyword = map[string]bool{
	"CREATE": true, "REPLACE": true, "TEMP": true, "TEMPORARY": true, "TRANSIENT": true, "EXTERNAL": true,
	"TRUNCATE": true, "DROP": true, "ALTER": true, "LOCK": true, "INTO": true, "GLOBAL": true, "LOCAL": true,
	"UNLOGGED": true, "SELECT": true, "FROM": true, "JOIN": true, "ON": true, "BY": true, "WHERE": true, "AND": true, "OR": true,
}

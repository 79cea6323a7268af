package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Expressions: niladic functions, intervals, time travel, angle-bracket
// types, stage paths, star modifiers and string literals.

// niladic drops the parentheses warehouses allow after PostgreSQL's
// keyword functions (CURRENT_DATE(), CURRENT_TIMESTAMP()). BigQuery's
// time zone argument goes too: the value still denotes "now", which is
// what rules look for.
func (d *dialect) niladic(i int) {
	if !d.Punct(i+1, '(') || d.Punct(i-1, '.') {
		return
	}
	c := d.closing(i + 1)
	if c < 0 {
		return
	}
	switch d.Word(i) {
	case "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP":
		if c == i+3 && d.Kind(i+2) == sqltext.Number {
			return // PostgreSQL's own precision
		}
	}
	d.drop(i+1, c)
}

// intervalUnits are the units BigQuery and Databricks write after an
// unquoted INTERVAL count, singular and plural.
var intervalUnits = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"} {
		m[u], m[u+"S"] = true, true
	}
	return m
}()

// interval quotes INTERVAL 1 DAY (BigQuery, Databricks) into PostgreSQL's
// INTERVAL '1 DAY'; Databricks' INTERVAL 2 HOURS 30 MINUTES becomes one
// string too.
func (d *dialect) interval(i int) {
	var parts []string
	j := i + 1
	for {
		k := j
		sign := ""
		if (d.Op(k) == "-") && k+1 < len(d.Code) && d.touch(k, k+1) {
			sign = "-"
			k++
		}
		if k+1 >= len(d.Code) || d.Kind(k) != sqltext.Number || !intervalUnits[d.Word(k+1)] {
			break
		}
		parts = append(parts, sign+d.Code[k].Text(d.Src)+" "+d.Code[k+1].Text(d.Src))
		j = k + 2
	}
	if len(parts) > 0 {
		d.replaceToks(i+1, j-1, "'"+strings.Join(parts, " ")+"'")
		return
	}
	// A count that is no literal (INTERVAL @days DAY, INTERVAL n DAY)
	// multiplies one unit.
	k := i + 1
	switch {
	case k >= len(d.Code):
		return
	case d.Punct(k, '('):
		k = d.closing(k)
	case d.Kind(k) == sqltext.Param, d.Kind(k) == sqltext.Word && !intervalUnits[d.Word(k)] && !notNames[d.Word(k)]:
	default:
		return
	}
	if k < 0 || !intervalUnits[d.Word(k+1)] {
		return
	}
	d.replaceTok(i, "(")
	d.replaceTok(k+1, "* INTERVAL '1 "+d.Code[k+1].Text(d.Src)+"')")
}

// timeTravel drops Databricks' VERSION AS OF / TIMESTAMP AS OF and
// BigQuery's FOR SYSTEM_TIME AS OF after a relation: the relation read is
// the same. It reports whether i starts such a clause.
func (d *dialect) timeTravel(i int) bool {
	j := i
	if d.Word(j) == "FOR" {
		j++
	}
	switch d.Word(j) {
	case "VERSION", "TIMESTAMP", "SYSTEM_TIME", "SYSTEM_VERSION":
	default:
		return false
	}
	if d.Word(j+1) != "AS" || d.Word(j+2) != "OF" || !d.nameEnded(i) {
		return false
	}
	end := d.expression(j + 3)
	if end == j+3 {
		return false
	}
	d.drop(i, end-1)
	return true
}

// nameEnded reports whether a relation name ends just before i.
func (d *dialect) nameEnded(i int) bool {
	if i == 0 {
		return false
	}
	switch d.Kind(i - 1) {
	case sqltext.Word:
		return !notNames[d.Word(i-1)] && d.Word(i-1) != "AS"
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.JinjaExpr:
		return true
	}
	return false
}

// expression returns the index after a simple expression that starts at
// k: operands (literals, names, calls, typed literals, intervals,
// bracketed terms) joined by operators. It is enough for the point in time
// of a time travel clause.
func (d *dialect) expression(k int) int {
	for {
		e := d.operand(k)
		if e == k || e >= len(d.Code) || d.Kind(e) != sqltext.Operator {
			return e
		}
		k = e + 1
	}
}

func (d *dialect) operand(k int) int {
	if k >= len(d.Code) {
		return k
	}
	switch t := d.Code[k]; {
	case t.Kind == sqltext.String, t.Kind == sqltext.Number, t.Kind == sqltext.Param:
		return k + 1
	case d.Punct(k, '('):
		return max(d.closing(k)+1, k)
	case d.Word(k) == "INTERVAL":
		e := d.operand(k + 1)
		if intervalUnits[d.Word(e)] {
			e++
		}
		return e
	case t.Kind == sqltext.Word && d.Punct(k+1, '('):
		return max(d.closing(k+1)+1, k)
	case t.Kind == sqltext.Word && k+1 < len(d.Code) && d.Kind(k+1) == sqltext.String:
		return k + 2
	case t.Kind == sqltext.Word, t.Kind == sqltext.QuotedIdent:
		return k + 1
	}
	return k
}

// angleType rewrites BigQuery's and Databricks' ARRAY<T>, STRUCT<...> and
// MAP<K, V> types into PostgreSQL type names: T[], struct and map.
func (d *dialect) angleType(i int) {
	// The bracket touches the type name where it is a type; "map < x"
	// compares a column.
	if !(d.Op(i+1) == "<") || !d.touch(i, i+1) {
		return
	}
	depth, nested := 0, false
	for k := i + 1; k < len(d.Code) && k < i+400; k++ {
		t := d.Code[k]
		switch {
		case t.Kind == sqltext.Operator:
			for c := int(t.Start); c < int(t.End); c++ {
				switch d.Src[c] {
				case ':':
					// Spark's field separator: STRUCT<a: INT>.
					continue
				case '<':
					depth++
					nested = nested || k > i+1
				case '>':
					depth--
				default:
					return
				}
				if depth == 0 {
					d.closeAngle(i, k, c, nested)
					return
				}
			}
		// A Param is Spark's field separator touching the type: b:STRING.
		case t.Kind == sqltext.Word, t.Kind == sqltext.Number, t.Kind == sqltext.QuotedIdent, t.Kind == sqltext.Backtick,
			d.Punct(k, ','), d.Punct(k, '('), d.Punct(k, ')'), t.Kind == sqltext.Param && d.Src[t.Start] == ':':
		default:
			return
		}
	}
}

// arrayOfType rewrites Trino's array type in a cast, CAST(x AS
// ARRAY(JSON)), into PostgreSQL's JSON[]. Only a type of plain words is
// rewritten: ARRAY(ROW(...)) and ARRAY(ARRAY(...)) are left to the
// token reading.
func (d *dialect) arrayOfType(i int) {
	if d.Word(i) != "ARRAY" || d.Word(i-1) != "AS" || !d.Punct(i+1, '(') {
		return
	}
	if open := d.parent.At(i); open < 1 || d.Word(open-1) != "CAST" && d.Word(open-1) != "TRY_CAST" {
		return
	}
	c := d.closing(i + 1)
	if c < 0 || c == i+2 {
		return
	}
	for k := i + 2; k < c; k++ {
		if d.Kind(k) != sqltext.Word && d.Kind(k) != sqltext.QuotedIdent {
			return
		}
	}
	d.drop(i, i+1)
	d.replaceTok(c, "[]")
}

// closeAngle writes the rewrite of the type at i whose closing '>' is at
// offset c in token k.
func (d *dialect) closeAngle(i, k, c int, nested bool) {
	kind := strings.ToLower(d.Word(i))
	if c+1 == int(d.Code[k].End) && (d.Punct(k+1, '[') || d.Punct(k+1, '(')) {
		// A typed constructor: the values' own types say as much.
		switch {
		case kind == "array" && d.Punct(k+1, '['):
			d.replace(int(d.Code[i].End), c+1, "")
			d.typed[k+1] = true
		case kind == "struct" && d.Punct(k+1, '('):
			d.replace(int(d.Code[i].Start), c+1, "ROW")
			d.structFields(k + 1)
		}
		return
	}
	switch {
	case kind != "array":
		d.replace(int(d.Code[i].Start), c+1, kind)
	case nested:
		d.replace(int(d.Code[i].Start), c+1, strings.ToLower(d.Word(i+2))+"[]")
	default:
		d.replaceToks(i, i+1, "")
		d.replace(c, c+1, "[]")
	}
}

// stage rewrites a Snowflake stage read in FROM (@stage/path, @%table, @~)
// into a relation named after it, without its FILE_FORMAT and PATTERN.
func (d *dialect) stage(j int) {
	if j >= len(d.Code) || (d.Kind(j) != sqltext.Param && d.Kind(j) != sqltext.Operator) || d.Code[j].Text(d.Src)[0] != '@' {
		return
	}
	k := j
	for k+1 < len(d.Code) && d.touch(k, k+1) && !(d.Kind(k+1) == sqltext.Punct && strings.IndexByte("(),;", d.Src[d.Code[k+1].Start]) >= 0) {
		k++
	}
	d.replaceToks(j, k, sqltext.QuoteIdent(d.Src[d.Code[j].Start:d.Code[k].End]))
	if d.Punct(k+1, '(') && (d.Op(k+3) == "=>") {
		if c := d.closing(k + 1); c > 0 {
			d.drop(k+1, c)
		}
	}
}

// likeAny rewrites the pattern list of Snowflake's and BigQuery's LIKE
// ANY ('a%', 'b%') (ILIKE, NOT LIKE, ALL and SOME alike) into PostgreSQL's
// array, LIKE ANY (ARRAY['a%', 'b%']). A subquery, LIKE ANY (SELECT ...),
// is PostgreSQL's own and stays.
func (d *dialect) likeAny(i int) {
	if w := d.Word(i - 1); w != "LIKE" && w != "ILIKE" || !d.Punct(i+1, '(') {
		return
	}
	c := d.closing(i + 1)
	switch d.Word(i + 2) {
	case "SELECT", "WITH", "ARRAY":
		return
	}
	if c <= i+2 || d.Punct(i+2, '(') && d.closing(i+2) == c-1 && (d.Word(i+3) == "SELECT" || d.Word(i+3) == "WITH") {
		return
	}
	d.replaceTok(i+1, "(ARRAY[")
	d.replaceTok(c, "])")
}

// compositeStar brackets a call whose result is expanded with .*, as
// PostgreSQL reads the fields of a composite value: BigQuery's
// get_fields(x).* and IF(a, b, c).* become (get_fields(x)).*.
func (d *dialect) compositeStar(i int) {
	if i < 3 || !d.Punct(i-1, '.') || !d.Punct(i-2, ')') || !d.touch(i-2, i-1) || !d.touch(i-1, i) {
		return
	}
	open := d.match.At(i - 2)
	if open < 0 || open >= i-2 {
		return
	}
	start := open
	for start > 0 && d.touch(start-1, start) && d.calleePart(start-1) {
		start--
	}
	if start == open {
		return // (x).* already reads so
	}
	d.replace(int(d.Code[start].Start), int(d.Code[start].Start), "(")
	d.replace(int(d.Code[i-2].End), int(d.Code[i-2].End), ")")
}

// calleePart reports whether token k can be part of a function's name.
func (d *dialect) calleePart(k int) bool {
	switch d.Kind(k) {
	case sqltext.Word, sqltext.Backtick, sqltext.QuotedIdent:
		return true
	}
	return d.Punct(k, '.')
}

// starModifiers drops what Snowflake (EXCLUDE, RENAME, REPLACE), BigQuery
// (EXCEPT, REPLACE) and Databricks (EXCEPT) write after SELECT *: the
// star still stands for the relation's columns.
func (d *dialect) starModifiers(i int) {
	j := i + 1
	for {
		w := d.Word(j)
		if w != "EXCEPT" && w != "EXCLUDE" && w != "REPLACE" && w != "RENAME" {
			return
		}
		switch {
		case d.Punct(j+1, '('):
			if s := d.Word(j + 2); s == "SELECT" || s == "WITH" {
				return // a set operation
			}
			c := d.closing(j + 1)
			if c < 0 {
				return
			}
			d.drop(j, c)
			j = c + 1
		case w == "EXCLUDE" || w == "RENAME":
			// Snowflake allows one column without brackets.
			n := d.nameEnd(j + 1)
			if n == j+1 {
				return
			}
			if w == "RENAME" {
				if d.Word(n) != "AS" || d.nameEnd(n+1) == n+1 {
					return
				}
				n = d.nameEnd(n + 1)
			}
			d.drop(j, n-1)
			j = n
		default:
			return
		}
	}
}

// stringLiteral rewrites BigQuery's string forms into PostgreSQL strings
// with the same value: raw and bytes prefixes, triple-quoted and
// double-quoted strings, and strings that escape a quote with a backslash,
// which become PostgreSQL's E strings.
func (d *dialect) stringLiteral(i int) {
	t := d.Code[i]
	s := t.Text(d.Src)
	if s[0] == '$' {
		return // a dollar-quoted string: PostgreSQL's own, no escapes inside
	}
	n := sqltext.StringPrefix(s, 0)
	prefix := strings.ToLower(s[:n])
	if strings.ContainsAny(prefix, "enx") {
		return // PostgreSQL's own
	}
	body, raw := s[n:], strings.Contains(prefix, "r")
	if prefix == "" && body[0] == '\'' && (strings.Contains(body, "{{") || strings.Contains(body, "{%")) {
		return // Jinja in a literal: the template's reading quotes it again
	}
	switch {
	case sqltext.TripleQuoted(body, 0) && len(body) >= 6:
		d.replaceTok(i, quoteString(body[3:len(body)-3]))
	case body[0] == '"' && raw:
		d.replaceTok(i, quoteString(body[1:len(body)-1]))
	case body[0] == '"':
		d.replaceTok(i, escapedString(body))
	case raw:
		d.replace(int(t.Start), int(t.Start)+n, "")
	case prefix == "" && unescapedEnd(body) < len(body):
		d.replace(int(t.Start), int(t.Start), "E")
	}
}

// escapedIdent rewrites a BigQuery double-quoted string that escapes a
// quote with a backslash, which the lexer read whole, into an E string;
// PostgreSQL would end it at the escaped quote.
func (d *dialect) escapedIdent(i int) {
	t := d.Code[i]
	s := t.Text(d.Src)
	if s == `""` {
		// No dialect has an empty identifier: in BigQuery "" is the
		// empty string.
		d.replaceTok(i, "''")
		return
	}
	if unescapedEnd(s) < len(s) || escapesQuote(s) {
		d.replaceTok(i, escapedString(s))
	}
}

// escapesQuote reports whether a backslash escapes the quote of s inside
// it ("bar\"" is BigQuery's string bar"; PostgreSQL would read the name
// bar\" from it, and no name holds a backslash).
func escapesQuote(s string) bool {
	for i := 2; i < len(s)-1; i++ {
		if s[i] == s[0] && sqltext.OddBackslashes(s[1:i]) {
			return true
		}
	}
	return false
}

// unescapedEnd returns where a quoted token ends when a backslash escapes
// nothing, as in PostgreSQL's standard strings and identifiers.
func unescapedEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		if s[i] == q {
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}

// nulEscape returns the length of the escape of a NUL byte that s starts
// with (after its backslash: x00, 000, u0000), or 0.
func nulEscape(s string) int {
	for _, e := range []string{"x00", "X00", "000", "u0000", "U00000000"} {
		if strings.HasPrefix(s, e) {
			return len(e)
		}
	}
	return 0
}

// escapedString turns a quoted token whose escapes are backslashes (and
// whose quote may be the double one) into a PostgreSQL E string.
func escapedString(s string) string {
	q, body := s[0], s[1:len(s)-1]
	var b strings.Builder
	b.WriteString("E'")
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body):
			i++
			if body[i] == '"' {
				b.WriteByte('"')
			} else if n := nulEscape(body[i:]); n > 0 {
				// PostgreSQL refuses a NUL in a string; a bytes literal's
				// value changes no fact, so another byte stands in.
				b.WriteString(`\x01`)
				i += n - 1
			} else {
				b.WriteByte('\\')
				b.WriteByte(body[i])
			}
		case c == '\'':
			b.WriteString(`\'`)
		case c == q && i+1 < len(body) && body[i+1] == q:
			i++ // a doubled quote
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

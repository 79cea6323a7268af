package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Procedural scripts and the BigQuery and Spark constructs inside
// statements: DECLARE, SET, SELECT AS, arrays, WITH OFFSET, LATERAL VIEW,
// table functions.

// script drops the procedural scaffolding of BigQuery scripts, Snowflake
// Scripting and Databricks SQL scripts, so that each statement a script
// runs parses on its own. The file is cut at every top-level ';', which
// leaves a block opener (BEGIN, IF ... THEN, WHILE ... DO, ELSE, EXCEPTION
// WHEN ... THEN) in front of the first statement it holds, and closers
// (END IF, END) and control statements (RETURN, RAISE, SIGNAL, BREAK) as
// pieces of their own. The openers go and the statement after them starts
// a statement; closers and control statements become empty pieces, which
// are not statements.
//
// A script block is no transaction: BEGIN followed by a statement opens a
// block and is dropped, and so is the END that closes it, where PostgreSQL
// would read BEGIN and END as a transaction's. BEGIN TRANSACTION, COMMIT
// and ROLLBACK stay as written. An IF's or a loop's condition is dropped
// with its opener: the statements it guards are what write and read.
func (d *dialect) script() {
	d.starts = make([]bool, len(d.Code)+1)
	blocks := 0
	for k := 0; k < len(d.Code); k++ {
		if !d.scriptStart(k) {
			continue
		}
		opener := -1 // the last token of a dropped opener
		switch w := d.Word(k); w {
		case "BEGIN":
			if d.blockBegin(k) {
				opener = k
				blocks++
			}
		case "CREATE":
			if b := d.procedureBegin(k); b > 0 {
				opener = b
				blocks++
			} else if as := d.taskBody(k); as > 0 {
				opener = as
				if d.Word(as) == "BEGIN" {
					blocks++
				}
			}
		case "END":
			switch d.Word(k + 1) {
			case "IF", "WHILE", "LOOP", "FOR", "REPEAT", "CASE":
				d.drop(k, k+1)
				k++
			default:
				if blocks > 0 && (k+1 == len(d.Code) || d.Punct(k+1, ';')) {
					d.drop(k, k)
					blocks--
				}
			}
		case "IF", "ELSEIF", "ELSIF", "WHEN", "CASE":
			opener = d.scriptClause(k, "THEN")
		case "WHILE", "FOR":
			opener = d.scriptClause(k, "DO")
		case "EXCEPTION":
			if d.Word(k+1) == "WHEN" {
				opener = d.scriptClause(k, "THEN")
			}
		case "ELSE", "LOOP", "REPEAT":
			opener = k
		case "UNTIL", "BREAK", "LEAVE", "CONTINUE", "ITERATE", "RETURN", "RAISE", "SIGNAL", "RESIGNAL":
			if end := d.stmtEnd(k); end > k {
				d.drop(k, end-1)
				k = end - 1
			}
		}
		if opener >= 0 {
			d.drop(k, opener)
			d.starts[opener+1] = true
			k = opener
		}
	}
}

// procedureBegin returns the BEGIN that opens the body of a BigQuery
// CREATE [OR REPLACE] [TEMP] PROCEDURE name(args) [OPTIONS(...)] BEGIN, or
// -1. The head goes with it: the body's statements are what a CALL runs,
// and each is read as a statement of the script.
func (d *dialect) procedureBegin(k int) int {
	j := k + 1
	if d.Word(j) == "OR" && d.Word(j+1) == "REPLACE" {
		j += 2
	}
	if w := d.Word(j); w == "TEMP" || w == "TEMPORARY" {
		j++
	}
	if d.Word(j) != "PROCEDURE" {
		return -1
	}
	if b := d.wordOutsideBrackets(j, d.stmtEnd(k), "BEGIN"); b > 0 && d.blockBegin(b) {
		return b
	}
	return -1
}

// wordOutsideBrackets returns the first code token from i to end that is
// the keyword word outside brackets (a parameter list, OPTIONS(...)), or
// -1, also when a bracket does not close.
func (d *dialect) wordOutsideBrackets(i, end int, word string) int {
	for ; i < end; i++ {
		switch {
		case d.Punct(i, '('):
			if d.match.At(i) < 0 {
				return -1
			}
			i = d.match.At(i)
		case d.Word(i) == word:
			return i
		}
	}
	return -1
}

// taskBody returns where the head of a Snowflake CREATE [OR REPLACE] TASK
// ... AS ends: the BEGIN of a block body, or the AS before a single
// statement; -1 for other statements. What a task runs is what it writes
// and reads, each statement read on its own.
func (d *dialect) taskBody(k int) int {
	j := k + 1
	if d.Word(j) == "OR" && d.Word(j+1) == "REPLACE" {
		j += 2
	}
	if d.Word(j) != "TASK" {
		return -1
	}
	as := d.wordOutsideBrackets(j, d.stmtEnd(k)-1, "AS")
	if as > 0 && d.Word(as+1) == "BEGIN" && d.blockBegin(as+1) {
		return as + 1
	}
	return as
}

// scriptStart reports whether code token i begins a statement of a
// script: it is the first, follows a ';' or a dropped opener. After Jinja,
// which stmtStart accepts too, the same words more likely continue a
// statement ({% if %} WHEN MATCHED, {{ this }} SET).
func (d *dialect) scriptStart(i int) bool {
	return i == 0 || d.starts[i] || d.Punct(i-1, ';') && d.parent.At(i-1) < 0
}

// blockBegin reports whether the BEGIN at k opens a script block rather
// than a transaction: a statement follows it.
func (d *dialect) blockBegin(k int) bool {
	if k+1 >= len(d.Code) || d.Kind(k+1) != sqltext.Word {
		return false
	}
	switch d.Word(k + 1) {
	case "TRANSACTION", "WORK", "ISOLATION", "READ", "NOT", "DEFERRABLE", "NAME":
		return false
	}
	return true
}

// scriptClause returns the keyword (THEN or DO) that ends the condition of
// the script clause at k, or -1. A CASE expression in the condition has
// THENs of its own.
func (d *dialect) scriptClause(k int, keyword string) int {
	cases := 0
	for j := k + 1; j < d.stmtEnd(k); j++ {
		switch w := d.Word(j); {
		case d.Punct(j, '(') || d.Punct(j, '['):
			if d.match.At(j) < 0 {
				return -1
			}
			j = d.match.At(j)
		case w == "CASE":
			cases++
		case w == "END" && cases > 0:
			cases--
		case w == keyword && cases == 0 && j+1 < d.stmtEnd(k):
			return j
		}
	}
	return -1
}

// declare rewrites the DECLARE of script variables (BigQuery's, and
// Databricks' DECLARE VARIABLE) into a query of their initial value:
// DECLARE d DATE DEFAULT (SELECT MAX(ds) FROM t) reads t as SELECT
// (SELECT MAX(ds) FROM t) does, and a DECLARE without a value reads
// nothing, as SELECT NULL. PostgreSQL's own DECLARE of a cursor stays.
func (d *dialect) declare(i int) {
	end := d.stmtEnd(i)
	if !d.scriptStart(i) || end < i+3 {
		return
	}
	for k := i + 2; k < min(end, i+8); k++ {
		if d.Word(k) == "CURSOR" {
			return
		}
	}
	value := func(k int) bool { return d.Word(k) == "DEFAULT" || (d.Op(k) == "=") }
	if def := d.scanTo(i+1, "declare", value); def < end-1 && value(def) {
		d.replaceToks(i, def, "SELECT ")
		return
	}
	d.replaceToks(i, end-1, "SELECT NULL")
}

// set rewrites the assignment of a script variable (BigQuery's SET x =
// expr, SET (a, b) = (SELECT AS STRUCT ...), Snowflake's SET x = (SELECT
// ...), Databricks' SET VAR x = expr) into a query of the value, as
// declare does. A value PostgreSQL's SET takes (constants and names)
// stays a SET.
func (d *dialect) set(i int) {
	end := d.stmtEnd(i)
	if !d.scriptStart(i) {
		return
	}
	j := i + 1
	variable := (d.Word(j) == "VAR" || d.Word(j) == "VARIABLE") && d.nameStart(j+1)
	if variable {
		j++
	}
	eq := d.nameEnd(j)
	if d.Punct(j, '(') {
		eq = d.closing(j) + 1
	}
	if eq <= j || !(d.Op(eq) == "=") || eq+1 >= end {
		return
	}
	simple := !variable
	for k := eq + 1; k < end && simple; k++ {
		switch t := d.Code[k]; {
		case t.Kind == sqltext.String || t.Kind == sqltext.Number || t.Kind == sqltext.Word || t.Kind == sqltext.QuotedIdent, d.Punct(k, ','):
		case ((d.Op(k) == "-") || (d.Op(k) == "+")) && (k == eq+1 || d.Punct(k-1, ',')) && k+1 < end && d.Kind(k+1) == sqltext.Number:
		default:
			simple = false
		}
	}
	if !simple {
		d.replaceToks(i, eq, "SELECT")
	}
}

// selectAs drops BigQuery's SELECT AS STRUCT and SELECT AS VALUE, which
// shape each row into one value; the columns read are the same.
func (d *dialect) selectAs(i int) {
	j := i + 1
	if w := d.Word(j); w == "DISTINCT" || w == "ALL" {
		j++
	}
	if w := d.Word(j + 1); d.Word(j) == "AS" && (w == "STRUCT" || w == "VALUE") {
		d.drop(j, j+1)
	}
}

// structFields drops the field names of a BigQuery STRUCT(1 AS a, x AS
// b) whose bracket opens at open: the constructor becomes PostgreSQL's
// ROW(1, x), which reads the same columns.
func (d *dialect) structFields(open int) {
	c := d.closing(open)
	if c < 0 {
		return
	}
	for k := open + 1; k < c; k++ {
		switch {
		case d.Punct(k, '(') || d.Punct(k, '['):
			if d.match.At(k) > k {
				k = d.match.At(k)
			}
		case d.Word(k) == "AS" && (d.Punct(k+2, ',') || k+2 == c) && k+1 < c && (d.Kind(k+1) == sqltext.Word || d.Kind(k+1) == sqltext.Backtick || d.Kind(k+1) == sqltext.QuotedIdent):
			d.drop(k, k+1)
		}
	}
}

// exprKeywords are the words after which a bracket opens an array literal
// rather than a subscript.
var exprKeywords = map[string]bool{
	"SELECT": true, "DISTINCT": true, "ALL": true, "WHERE": true, "AND": true, "OR": true, "NOT": true,
	"IN": true, "THEN": true, "ELSE": true, "WHEN": true, "DEFAULT": true, "RETURN": true, "ON": true,
	"HAVING": true, "CASE": true, "BY": true, "VALUES": true, "IS": true, "LIKE": true, "BETWEEN": true,
	"SET": true, "QUALIFY": true, "ANY": true, "SOME": true,
}

// arrayLiteral rewrites BigQuery's and Snowflake's array literal [1, 2]
// into PostgreSQL's ARRAY[1, 2]. A bracket after a value is a subscript.
func (d *dialect) arrayLiteral(i int) {
	if d.literalArray(i) {
		d.replaceTok(i, "ARRAY[")
	}
}

// literalArray reports whether the bracket at i opens an array literal.
func (d *dialect) literalArray(i int) bool {
	if i == 0 || d.typed[i] || d.match.At(i) < i {
		return false
	}
	switch p := d.Code[i-1]; {
	case p.Kind == sqltext.Word && (d.Word(i-1) == "VALUE" || d.Word(i-1) == "STRUCT") && d.Word(i-2) == "AS":
		return true // SELECT AS VALUE [1, 2], whose AS VALUE is dropped
	case p.Kind == sqltext.Word && !exprKeywords[d.Word(i-1)]:
		return false
	case p.Kind == sqltext.Operator && strings.HasSuffix(p.Text(d.Src), ":") && d.Kind(i-2) != sqltext.String:
		return false // a Snowflake path; after a string, an object constant's colon
	case p.Kind == sqltext.Punct && !d.Punct(i-1, '(') && !d.Punct(i-1, ',') && !d.Punct(i-1, '['):
		return false
	case p.Kind != sqltext.Word && p.Kind != sqltext.Operator && p.Kind != sqltext.Punct:
		return false
	}
	return true
}

// subscriptedCall brackets a function call that a subscript or a field
// name follows, split(s, ',')[OFFSET(0)] or parse(h).campaign, and an
// array literal that a subscript follows, [1, 2][OFFSET(0)]: PostgreSQL
// subscripts names and bracketed expressions only.
func (d *dialect) subscriptedCall(i int) {
	if d.Punct(i, '[') && d.match.At(i) < i || d.Punct(i, '.') && !(d.touch(i, i+1) && d.Kind(i+1) == sqltext.Word) {
		return
	}
	start := -1
	switch {
	case d.Punct(i-1, ')'):
		start = d.callStart(i - 1)
	case d.Punct(i-1, ']') && d.Punct(i, '['):
		switch o := d.match.At(i - 1); {
		case o < 1:
		case d.Word(o-1) == "ARRAY":
			start = o - 1
		case strings.HasSuffix(d.Op(o-1), ">"):
			start = d.typedArrayStart(o)
		case d.literalArray(o):
			start = o
		}
	}
	if start < 0 {
		return
	}
	d.replace(int(d.Code[start].Start), int(d.Code[start].Start), "(")
	d.replace(int(d.Code[i].Start), int(d.Code[i].Start), ")")
}

// typedArrayStart returns the ARRAY that opens the typed array literal
// whose bracket is at o, ARRAY<STRING>['a'], or -1.
func (d *dialect) typedArrayStart(o int) int {
	for k := o - 1; k > 0 && k > o-64; k-- {
		if d.Word(k) == "ARRAY" && strings.HasPrefix(d.Op(k+1), "<") && d.touch(k, k+1) {
			return k
		}
		if d.Kind(k) != sqltext.Word && d.Kind(k) != sqltext.Operator && d.Kind(k) != sqltext.Backtick && !d.Punct(k, ',') {
			return -1
		}
	}
	return -1
}

// callStart returns the first token of the call whose closing bracket is
// at c: its name, qualified or not, or the call that an ordered-set
// aggregate's WITHIN GROUP (...) or a window's OVER (...) follows; -1 when
// the bracket closes no call.
func (d *dialect) callStart(c int) int {
	o := d.match.At(c)
	if o < 1 {
		return -1
	}
	switch w := d.Word(o - 1); {
	case w == "GROUP" && d.Word(o-2) == "WITHIN" && d.Punct(o-3, ')'):
		return d.callStart(o - 3)
	case w == "OVER" && d.Punct(o-2, ')'):
		return d.callStart(o - 2)
	}
	switch d.Kind(o - 1) {
	case sqltext.Word:
		if exprKeywords[d.Word(o-1)] || notNames[d.Word(o-1)] {
			return -1
		}
	case sqltext.QuotedIdent, sqltext.Backtick:
	default:
		return -1
	}
	name := o - 1
	for name >= 2 && d.Punct(name-1, '.') && (d.Kind(name-2) == sqltext.Word || d.Kind(name-2) == sqltext.Backtick || d.Kind(name-2) == sqltext.QuotedIdent) {
		name -= 2
	}
	return name
}

// arrayIndex rewrites BigQuery's arr[OFFSET(n)], [SAFE_OFFSET(n)],
// [ORDINAL(n)] and [SAFE_ORDINAL(n)] into PostgreSQL's one-based
// subscript arr[(n)+1] or arr[(n)]; the SAFE forms differ only in
// returning NULL out of bounds, as PostgreSQL does anyway.
func (d *dialect) arrayIndex(i int) {
	if !d.Punct(i-1, '[') || !d.Punct(i+1, '(') {
		return
	}
	c := d.closing(i + 1)
	if c < 0 || !d.Punct(c+1, ']') {
		return
	}
	d.drop(i, i)
	if w := d.Word(i); w == "OFFSET" || w == "SAFE_OFFSET" {
		d.replaceTok(c, ")+1")
	}
}

// queryParam reports whether the @name at i is a BigQuery query
// parameter, not a Snowflake stage (@stage/path, @db.stage).
func (d *dialect) queryParam(i int) bool {
	if !d.touch(i, i+1) {
		return true
	}
	n := d.Code[i+1]
	return !d.Punct(i+1, '.') && !(n.Kind == sqltext.Operator && (d.Src[n.Start] == '/' || d.Src[n.Start] == '%'))
}

// withOffset rewrites BigQuery's UNNEST(arr) [AS] x WITH OFFSET [AS] pos
// into PostgreSQL's unnest(arr) WITH ORDINALITY AS x(x, pos). The alias
// moves behind the ordinality, where PostgreSQL wants it; the column list
// names the element and the position as BigQuery does.
func (d *dialect) withOffset(i int) {
	if i < 2 {
		return
	}
	alias, aliasStart := -1, i
	if d.Kind(i-1) == sqltext.Word && !aliasStops[d.Word(i-1)] || d.Kind(i-1) == sqltext.Backtick || d.Kind(i-1) == sqltext.QuotedIdent {
		alias, aliasStart = i-1, i-1
		if d.Word(i-2) == "AS" {
			aliasStart = i - 2
		}
	}
	if !d.Punct(aliasStart-1, ')') || d.Word(d.match.At(aliasStart-1)-1) != "UNNEST" {
		return
	}
	last := i + 1 // OFFSET
	pos := ""
	j := i + 2
	if d.Word(j) == "AS" {
		j++
	}
	if j < len(d.Code) && (d.Kind(j) == sqltext.Word && !aliasStops[d.Word(j)] || d.Kind(j) == sqltext.Backtick || d.Kind(j) == sqltext.QuotedIdent) {
		pos, last = d.identText(j), j
	}
	switch {
	case alias >= 0:
		name := d.identText(alias)
		cols := name
		if pos != "" {
			cols += ", " + pos
		}
		// From the bracket on, so that the rewrite of a back-quoted alias,
		// which would start where this one does, cannot take its place.
		d.replaceToks(aliasStart-1, alias, ") WITH ORDINALITY AS "+name+"("+cols+")")
		d.drop(i, last)
	case pos != "":
		d.replaceToks(i, last, "WITH ORDINALITY AS "+pos+"(unnest, "+pos+")")
	default:
		d.replaceToks(i, last, "WITH ORDINALITY")
	}
}

// identText returns the identifier at i as PostgreSQL writes it.
func (d *dialect) identText(i int) string {
	if d.Kind(i) == sqltext.Backtick {
		return backtickToQuoted(d.Code[i].Text(d.Src))
	}
	return d.Code[i].Text(d.Src)
}

// lateralView rewrites Hive's and Spark's LATERAL VIEW [OUTER]
// explode(arr) t AS x, y into PostgreSQL's lateral join of the same
// function, CROSS JOIN LATERAL explode(arr) AS t(x, y); OUTER keeps the
// rows whose array is empty, as LEFT JOIN LATERAL ... ON true does.
func (d *dialect) lateralView(i int) {
	j := i + 2
	outer := d.Word(j) == "OUTER"
	if outer {
		j++
	}
	if d.Kind(j) != sqltext.Word || !d.Punct(j+1, '(') {
		return
	}
	c := d.closing(j + 1)
	if c < 0 {
		return
	}
	k := c + 1
	table := -1
	if d.Word(k) != "AS" && k < len(d.Code) && (d.Kind(k) == sqltext.Word || d.Kind(k) == sqltext.Backtick) {
		table = k
		k++
	}
	if d.Word(k) != "AS" {
		return
	}
	var cols []string
	last := k
	for {
		n := last + 1
		if n >= len(d.Code) || (d.Kind(n) != sqltext.Word && d.Kind(n) != sqltext.Backtick && d.Kind(n) != sqltext.QuotedIdent) || aliasStops[d.Word(n)] {
			break
		}
		cols = append(cols, d.identText(n))
		last = n
		if !d.Punct(n+1, ',') {
			break
		}
		last = n + 1
	}
	if len(cols) == 0 || d.Punct(last, ',') {
		return
	}
	name, from := cols[0], k
	if table >= 0 {
		name, from = d.identText(table), table
	}
	join, on := "CROSS JOIN LATERAL", ""
	if outer {
		join, on = "LEFT JOIN LATERAL", " ON true"
	}
	d.replaceToks(i, j-1, join)
	d.replaceToks(from, last, "AS "+name+"("+strings.Join(cols, ", ")+")"+on)
}

// tableFunction drops Snowflake's TABLE(...) around a table function in
// FROM, TABLE(FLATTEN(input => v)): PostgreSQL calls it without.
func (d *dialect) tableFunction(i int) {
	if !d.Punct(i+1, '(') || i+3 >= len(d.Code) || d.Kind(i+2) != sqltext.Word || !d.Punct(i+3, '(') {
		return
	}
	if w := d.Word(i - 1); w != "FROM" && w != "JOIN" && w != "LATERAL" && !d.Punct(i-1, ',') {
		return
	}
	c := d.closing(i + 1)
	if c < 0 || d.closing(i+3)+1 != c {
		return
	}
	d.drop(i, i+1)
	d.drop(c, c)
}

// function rewrites a function definition (BigQuery's CREATE TEMP
// FUNCTION with a SQL or JavaScript body, CREATE TABLE FUNCTION,
// Databricks' SQL functions) into an empty PostgreSQL function of the same
// name. Defining a function writes and reads no relation: what its body
// reads is read where it is called. kind is the token after the modifiers.
func (d *dialect) function(i, kind int, orReplace bool) {
	n := kind + 1
	if d.Word(kind) != "FUNCTION" {
		n++
	}
	if d.Word(n) == "IF" && d.Word(n+1) == "NOT" && d.Word(n+2) == "EXISTS" {
		n += 3
	}
	e := d.nameEnd(n)
	end := d.stmtEnd(i)
	if e == n || e >= end {
		return
	}
	head := "CREATE FUNCTION "
	if orReplace {
		head = "CREATE OR REPLACE FUNCTION "
	}
	d.replace(int(d.Code[i].Start), int(d.Code[n].Start), head)
	d.replaceToks(e, end-1, "() RETURNS void LANGUAGE sql AS ''")
}

// cloneSchema rewrites Snowflake's CREATE [OR REPLACE] SCHEMA or DATABASE
// ... CLONE into the creation of the schema or database: no table is
// written by name.
func (d *dialect) cloneSchema(i, kind int, orReplace bool) {
	n := kind + 1
	if d.Word(n) == "IF" && d.Word(n+1) == "NOT" && d.Word(n+2) == "EXISTS" {
		n += 3
	}
	e := d.nameEnd(n)
	end := d.stmtEnd(i)
	if e == n || d.Word(e) != "CLONE" || e+1 >= end {
		return
	}
	if orReplace {
		d.drop(i+1, i+2)
	}
	if e > n+1 {
		// PostgreSQL names a schema with one identifier; Snowflake
		// qualifies it with its database.
		d.replaceToks(n, e-1, sqltext.QuoteIdent(d.Src[d.Code[n].Start:d.Code[e-1].End]))
	}
	d.drop(e, end-1)
}

// Package dialect rewrites the warehouse syntax of Snowflake, BigQuery and
// Databricks/Spark into SQL the PostgreSQL parser reads, as edits over the
// text the user wrote, and records what each rewrite removed.
package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/internal/scratch"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Mark records what a dialect rewrite removed, at an original offset.
type Mark struct {
	Offset int
	Flags  Flags
	// Predicate is where the predicate of a removed REPLACE WHERE stands
	// in the original text, start and end: rules still read it. Zero for
	// other marks.
	Predicate [2]int
}

// dialect finds the rewrites of one file. It works on the code tokens of
// the original text, so every edit is a span the user wrote and every
// position maps back to it. Brackets and statement ends are indexed once,
// and scans remember where they stopped, so that a file that repeats a
// construct many times costs time in proportion to its length.
type dialect struct {
	sqltext.Cursor
	// match is the index of the bracket that closes or opens this one.
	// parent is the innermost bracket open around a token. Both are -1
	// where there is none.
	match, parent sqltext.Table
	// ends is where the statement holding a token ends: at its ';', at a
	// Jinja tag or at the end of the file.
	ends sqltext.Table
	// starts marks the tokens that begin a statement after procedural
	// scaffolding (BEGIN, IF ... THEN, ELSE) that script drops.
	starts []bool
	// typed marks the brackets of typed array constructors (ARRAY<T>[...]),
	// which are no array literals of their own.
	typed map[int]bool
	// merge is the MERGE whose WHEN clauses are being read, -1 outside one.
	merge int
	// done marks the tokens a rewrite of a larger construct already
	// rewrote (a path's later levels, an object constant's colons), which
	// no rewrite of their own may claim.
	done map[int]bool
	// scans holds, per purpose, the start and the result of the last scan.
	scans map[string][2]int
	edits []sqltext.Edit
	marks []Mark
}

// Edits rewrites Snowflake, BigQuery and Databricks/Spark syntax into
// SQL the PostgreSQL parser reads, and marks what each rewrite removed so
// rules still see the user's intent. What it does not recognise is left as
// written, for the parser to report.
func Edits(src string, toks, code []sqltext.Token) ([]sqltext.Edit, []Mark) {
	d := &dialect{Cursor: sqltext.NewCursor(src, code), merge: -1, scans: map[string][2]int{}, typed: map[int]bool{}, done: map[int]bool{}}
	d.index()
	defer d.release()
	for _, t := range toks {
		// PostgreSQL reads "#" and "//" as operators, so a BigQuery or
		// Snowflake comment would reach the parser as code.
		switch {
		case t.Kind != sqltext.LineComment:
		case src[t.Start] == '#':
			d.replace(int(t.Start), int(t.Start)+1, "--")
		case src[t.Start] == '/':
			d.replace(int(t.Start), int(t.Start)+2, "--")
		}
	}
	d.script()
	// The brackets around a subscripted call are inserted before the
	// rewrites of the call's own name, which start at the same offset and
	// would otherwise win.
	for i := range d.Code {
		if d.Punct(i, '[') || d.Punct(i, '.') {
			d.subscriptedCall(i)
		}
	}
	for i := range d.Code {
		d.at(i)
	}
	return d.edits, d.marks
}

// index fills match, parent and ends.
func (d *dialect) index() {
	n := len(d.Code)
	d.match, d.parent, d.ends = d.BracketsInto(scratch.Int32s.Get(n)), scratch.Int32s.Get(n), scratch.Int32s.Get(n)
	var open []int32
	for k := range d.Code {
		d.parent[k] = -1
		if len(open) > 0 {
			d.parent[k] = open[len(open)-1]
		}
		// An opener without its closer still holds what follows it.
		switch m := d.match.At(k); {
		case d.Punct(k, '(') || d.Punct(k, '['):
			open = append(open, int32(k))
		case m >= 0:
			open = open[:len(open)-1]
			d.parent[k] = d.parent[m]
		}
	}
	next := int32(n)
	for k := n - 1; k >= 0; k-- {
		if d.Kind(k) == sqltext.JinjaTag || (d.Punct(k, ';') && d.parent.At(k) < 0) {
			next = int32(k)
		}
		d.ends[k] = next
	}
}

// release gives back the tables index lent.
func (d *dialect) release() {
	scratch.Int32s.Put(d.match)
	scratch.Int32s.Put(d.parent)
	scratch.Int32s.Put(d.ends)
	d.match, d.parent, d.ends = nil, nil, nil
}

// at applies the rewrites that start at code token i.
func (d *dialect) at(i int) {
	if d.done[i] {
		return
	}
	t := d.Code[i]
	switch t.Kind {
	case sqltext.Backtick:
		d.replaceTok(i, backtickToQuoted(t.Text(d.Src)))
	case sqltext.String:
		d.stringLiteral(i)
	case sqltext.Number:
		// A hexadecimal literal of any length (a Trino varbinary such as an
		// address, 0x when empty) is PostgreSQL's hexadecimal bit string.
		if text := t.Text(d.Src); len(text) >= 2 && text[1]|0x20 == 'x' {
			d.replaceTok(i, "X'"+text[2:]+"'")
		}
	case sqltext.QuotedIdent:
		d.escapedIdent(i)
	case sqltext.Punct:
		switch {
		case d.Punct(i, '['):
			d.arrayLiteral(i)
		case d.Punct(i, '('):
			d.bracketedRelation(i)
		case d.Punct(i, ',') && d.trailingComma(i):
			// BigQuery and Snowflake accept a comma after the last item of
			// a select list; PostgreSQL does not.
			d.drop(i, i)
		}
	case sqltext.Param:
		switch text := t.Text(d.Src); {
		case text[0] == '@' && d.queryParam(i):
			// A BigQuery query parameter keeps its name, as an
			// identifier: read as PostgreSQL's prefix operator @ it would
			// fail before a reserved word (@end).
			d.replaceTok(i, sqltext.QuoteIdent(text))
		case text[0] == ':' && !d.path(i) && !d.sliceBound(i):
			// A bind variable keeps its name, as an identifier, so rules
			// never mistake it for a literal.
			d.replaceTok(i, sqltext.QuoteIdent(text))
		case text[0] == '$' && d.Punct(i-1, '.') && d.touch(i-1, i):
			// A stage file's column by position, qualified: t.$1.
			d.replaceTok(i, sqltext.QuoteIdent(text))
		}
	case sqltext.Operator:
		switch t.Text(d.Src) {
		case "*":
			d.compositeStar(i)
			d.starModifiers(i)
		case ":":
			d.path(i)
		case "{":
			d.object(i)
		case "$":
			// A Snowflake session variable, named as a bind variable is.
			if i+1 < len(d.Code) && d.Kind(i+1) == sqltext.Word && d.touch(i, i+1) {
				d.replace(int(t.Start), int(d.Code[i+1].End), sqltext.QuoteIdent(d.Src[t.Start:d.Code[i+1].End]))
			}
		}
	case sqltext.Word:
		if !d.dashedProject(i) {
			d.keyword(i)
		}
	}
}

// dashedProject quotes a table path whose first part, a BigQuery project,
// is written with dashes and no backticks (FROM moz-fx-data.telemetry.main):
// BigQuery reads it as one name where PostgreSQL reads subtractions. Only
// right after a word that a table name follows, and with no blank inside,
// is the dash part of a name; x-y.z elsewhere is arithmetic.
func (d *dialect) dashedProject(i int) bool {
	// The dash is looked at first: it rules out almost every word, and
	// the word before it is then upper-cased only for the few left.
	if i == 0 || d.Op(i+1) != "-" || !d.touch(i, i+1) || d.Kind(i-1) != sqltext.Word || !beforeTablePath[d.Keyword(i-1)] {
		return false
	}
	j := i
	for j+2 < len(d.Code) && d.Op(j+1) == "-" && d.touch(j, j+1) && d.touch(j+1, j+2) &&
		(d.Kind(j+2) == sqltext.Word || d.Kind(j+2) == sqltext.Number) {
		j += 2
	}
	if j == i || !d.Punct(j+1, '.') || !d.touch(j, j+1) {
		return false
	}
	d.replaceToks(i, j, sqltext.QuoteIdent(d.Src[d.Code[i].Start:d.Code[j].End]))
	return true
}

// bracketedRelation unwraps a relation name in brackets after FROM or
// JOIN, FROM (raw.events) e, which Trino and Snowflake read as the
// relation and PostgreSQL rejects; a macro that is handed a relation
// often brackets it in case it is a query.
func (d *dialect) bracketedRelation(i int) {
	if w := d.Word(i - 1); w != "FROM" && w != "JOIN" || d.Kind(i-1) != sqltext.Word {
		return
	}
	c := d.closing(i)
	if c < 0 || d.nameEnd(i+1) != c {
		return
	}
	for k := i + 1; k < c; k++ {
		if d.Kind(k) == sqltext.JinjaExpr {
			return // a macro there may write a query
		}
	}
	d.replaceTok(i, " ")
	d.replaceTok(c, " ")
}

// beforeTablePath are the words a table name follows.
var beforeTablePath = map[string]bool{"FROM": true, "JOIN": true, "INTO": true, "UPDATE": true, "USING": true, "TABLE": true, "VIEW": true, "MERGE": true}

// trailingComma reports whether the comma at i ends a list with nothing
// after it: before FROM, a closing bracket, the end of the statement, or a
// clause that follows a select list.
func (d *dialect) trailingComma(i int) bool {
	if i+1 >= len(d.Code) || d.Punct(i+1, ';') || d.Punct(i+1, ')') {
		return true
	}
	next := d.Keyword(i + 1) // every word EndsSelectList knows is a keyword
	return sqltext.EndsSelectList(next) && !(reservedColumns[next] && d.columnWord(i+1))
}

func (d *dialect) keyword(i int) {
	// Every word this reads is in the keyword table
	// (TestKeywordCasesAreKeywords): the names, most of a file's words,
	// end here.
	w := d.Keyword(i)
	if w == "" {
		return
	}
	if reservedColumns[w] && d.columnWord(i) {
		d.replaceTok(i, sqltext.QuoteIdent(strings.ToLower(d.Code[i].Text(d.Src))))
		return
	}
	switch w {
	case "CREATE":
		d.create(i)
	case "SELECT":
		d.selectAs(i)
	case "DECLARE":
		d.declare(i)
	case "SET":
		d.set(i)
	case "ASSERT":
		// BigQuery's ASSERT fails the script when its condition is false;
		// what it reads is what a query of the condition reads.
		if end := d.stmtEnd(i); d.scriptStart(i) && end > i+1 {
			d.replaceTok(i, "SELECT")
			if d.Word(end-2) == "AS" && d.Kind(end-1) == sqltext.String && end-2 > i+1 {
				d.drop(end-2, end-1)
			}
		}
	case "IN":
		// BigQuery's membership test in an array.
		if d.Word(i+1) == "UNNEST" && d.Punct(i+2, '(') {
			if d.Word(i-1) == "NOT" {
				d.replaceToks(i-1, i+1, "<> ALL")
			} else {
				d.replaceToks(i, i+1, "= ANY")
			}
		}
	case "WITH":
		if d.Word(i+1) == "OFFSET" {
			d.withOffset(i)
		}
	case "OFFSET", "SAFE_OFFSET", "ORDINAL", "SAFE_ORDINAL":
		d.arrayIndex(i)
	case "FORMAT":
		// BigQuery's CAST(x AS STRING FORMAT 'YYYY-MM'): the format
		// changes the text, not what is read.
		if o := d.parent.At(i); o > 0 && i+1 < len(d.Code) && d.Kind(i+1) == sqltext.String && d.Punct(i+2, ')') {
			if w := d.Word(o - 1); w == "CAST" || w == "SAFE_CAST" || w == "TRY_CAST" {
				d.drop(i, i+1)
			}
		}
	case "LATERAL":
		if d.Word(i+1) == "VIEW" {
			d.lateralView(i)
		}
	case "INSERT":
		d.insert(i)
	case "MERGE":
		d.mergeInto(i)
	case "WHEN":
		d.mergeWhen(i)
	case "THEN":
		d.mergeAction(i)
	case "DELETE":
		// Snowflake and BigQuery let FROM out of DELETE.
		if d.dmlStart(i) && d.Word(i+1) != "FROM" && d.nameStart(i+1) {
			d.replaceTok(i, "DELETE FROM")
		}
	case "COPY":
		d.copyInto(i)
	case "USE":
		d.use(i)
	case "ALTER":
		d.alter(i)
	case "TRUNCATE":
		d.truncate(i)
	case "DROP":
		// Spark's PURGE skips the trash, and BigQuery's snapshot and
		// external tables are tables; the drop is the same to rules.
		end := d.stmtEnd(i)
		if !d.stmtStart(i) {
			break
		}
		table := i + 1
		if w := d.Word(table); (w == "SNAPSHOT" || w == "EXTERNAL") && d.Word(table+1) == "TABLE" {
			d.drop(table, table)
			table++
		}
		if d.Word(table) == "TABLE" && d.Word(end-1) == "PURGE" && end-1 > table {
			d.drop(end-1, end-1)
		}
	case "OPTIMIZE", "VACUUM", "ANALYZE":
		d.maintenance(i)
	case "QUALIFY":
		d.qualify(i)
	case "GROUP":
		// GROUP BY ALL groups by every selected column that is not an
		// aggregate; the placeholder parses, the flag keeps the meaning.
		if d.Word(i+1) == "BY" && d.Word(i+2) == "ALL" && d.selectClauseEnds(i+3) {
			d.replaceTok(i+2, "()")
			d.mark(i, GroupByAll)
		}
	case "TRY_CAST", "SAFE_CAST":
		// Returning NULL instead of failing changes no rule's reading.
		if d.Punct(i+1, '(') {
			d.replaceTok(i, "CAST")
		}
	case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP",
		"CURRENT_USER", "SESSION_USER", "CURRENT_ROLE", "CURRENT_CATALOG":
		d.niladic(i)
	case "IGNORE", "RESPECT":
		if d.Word(i+1) == "NULLS" {
			d.drop(i, i+1)
		}
	case "LIMIT":
		// BigQuery's ARRAY_AGG(x ORDER BY y LIMIT 5) caps an aggregate; a
		// subquery's LIMIT is PostgreSQL's own.
		if o := d.parent.At(i); o > 0 && d.Kind(o-1) == sqltext.Word && d.Word(o+1) != "SELECT" && d.Word(o+1) != "WITH" &&
			i+1 < len(d.Code) && d.Kind(i+1) == sqltext.Number && d.Punct(i+2, ')') {
			d.drop(i, i+1)
		}
	case "INTERVAL":
		d.interval(i)
	case "FOR", "VERSION", "SYSTEM_TIME", "SYSTEM_VERSION":
		d.timeTravel(i)
	case "AT", "BEFORE":
		// Snowflake's time travel, AT (OFFSET => -3600): the relation
		// read is the same.
		if d.Punct(i+1, '(') && (d.Op(i+3) == "=>") && d.nameEnded(i) {
			if c := d.closing(i + 1); c > 0 {
				d.drop(i, c)
			}
		}
	case "DATE", "DATETIME", "TIMESTAMP", "TIME":
		if d.timeTravel(i) {
			return
		}
		// BigQuery writes literals in double quotes too; PostgreSQL would
		// read DATE "2024-01-01" as a column.
		if i+1 < len(d.Code) && d.Kind(i+1) == sqltext.QuotedIdent {
			if s := d.Code[i+1].Text(d.Src); len(s) > 2 && sqltext.IsDigit(s[1]) {
				d.replaceTok(i+1, quoteString(s[1:len(s)-1]))
			}
		}
		// BigQuery's conversion functions TIMESTAMP(expr) and TIME(expr):
		// PostgreSQL reads the words as type names whose bracket holds a
		// precision, and calls the function only by a quoted name.
		if w := d.Word(i); (w == "TIMESTAMP" || w == "TIME") && d.Punct(i+1, '(') && !d.Punct(i-1, '.') &&
			!(i+3 < len(d.Code) && d.Kind(i+2) == sqltext.Number && d.Punct(i+3, ')')) {
			d.replaceTok(i, sqltext.QuoteIdent(strings.ToLower(w)))
		}
	case "TABLE", "USER":
		// Reserved in PostgreSQL, plain names in the warehouses: a FROM
		// item aliased table, and table.col after it.
		if d.reservedName(i) {
			d.replaceTok(i, sqltext.QuoteIdent(strings.ToLower(d.Code[i].Text(d.Src))))
		} else if d.Word(i) == "TABLE" {
			d.tableFunction(i)
		}
	case "KEEP", "OMIT":
		// Trino's JSON_QUERY(doc, 'lax $.a' OMIT QUOTES ON SCALAR STRING)
		// only formats the value it returns; PostgreSQL 16 has no such
		// option, and the call still reads doc.
		if d.Word(i+1) == "QUOTES" && d.parent.At(i) >= 0 {
			end := i + 1
			if d.Word(i+2) == "ON" && d.Word(i+3) == "SCALAR" && d.Word(i+4) == "STRING" {
				end = i + 4
			}
			d.drop(i, end)
		}
	case "WITHIN":
		// PostgreSQL's grammar refuses DISTINCT in an ordered-set call:
		// Snowflake's LISTAGG(DISTINCT x, ',') WITHIN GROUP (ORDER BY x).
		if d.Word(i+1) == "GROUP" && d.Punct(i-1, ')') {
			if open := d.match.At(i - 1); open >= 0 && open < i-1 && d.Word(open+1) == "DISTINCT" {
				d.drop(open+1, open+1)
			}
		}
	case "ARRAY", "STRUCT", "MAP":
		// Snowflake's semi-structured casts: x::ARRAY, x::OBJECT keep the
		// value for every rule.
		if i > 0 && d.Kind(i-1) == sqltext.Operator && d.Code[i-1].Text(d.Src) == "::" && !d.Punct(i+1, '<') && !d.Punct(i+1, '(') && d.Word(i) != "STRUCT" {
			d.drop(i-1, i)
			return
		}
		d.angleType(i)
		d.arrayOfType(i)
		if d.Word(i) == "STRUCT" && d.Punct(i+1, '(') && !d.Punct(i-1, '.') {
			d.replaceTok(i, "ROW")
			d.structFields(i + 1)
		}
	case "FROM", "JOIN":
		d.stage(i + 1)
		if d.Word(i) == "JOIN" {
			d.joinWithoutOn(i)
		}
	case "START", "CONNECT":
		d.hierarchy(i)
	case "PRIOR", "CONNECT_BY_ROOT":
		d.hierarchyOperator(i)
	case "PIVOT", "UNPIVOT":
		d.pivot(i)
	case "USING":
		if d.Punct(i+1, '(') && d.nameEnded(i) {
			d.usingColumns(i)
		}
	case "EXTRACT":
		// Snowflake's EXTRACT('month', d) is its DATE_PART('month', d).
		if d.Punct(i+1, '(') && d.Punct(i+3, ',') && !d.Punct(i-1, '.') {
			switch d.Kind(i + 2) {
			case sqltext.String:
				d.replaceTok(i, "DATE_PART")
			case sqltext.Word:
				d.replaceTok(i, "DATE_PART")
				d.replaceTok(i+2, quoteString(strings.ToLower(d.Code[i+2].Text(d.Src))))
			}
		}
	case "ANY", "ALL", "SOME":
		d.likeAny(i)
	case "RLIKE", "REGEXP":
		if i+1 < len(d.Code) && d.Kind(i+1) == sqltext.String {
			if d.Word(i-1) == "NOT" {
				d.replaceToks(i-1, i, "!~")
			} else {
				d.replaceTok(i, "~")
			}
		}
	case "MINUS":
		// Snowflake's name for EXCEPT.
		if d.Word(i+1) == "SELECT" || d.Word(i+1) == "ALL" || d.Punct(i+1, '(') || d.Word(i+1) == "BY" && d.Word(i+2) == "NAME" {
			d.replaceTok(i, "EXCEPT")
		}
		d.byName(i)
	case "UNION", "INTERSECT", "EXCEPT":
		d.byName(i)
	}
}

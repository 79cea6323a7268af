package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// mark records what a dialect rewrite removed, at an original offset.
type mark struct {
	offset int
	flags  Flags
}

// dialect finds the rewrites of one file. It works on the code tokens of
// the original text, so every edit is a span the user wrote and every
// position maps back to it. Brackets and statement ends are indexed once,
// and scans remember where they stopped, so that a file that repeats a
// construct many times costs time in proportion to its length.
type dialect struct {
	src  string
	code []sqltext.Token
	// match is the index of the bracket that closes or opens this one.
	// parent is the innermost bracket open around a token. Both are -1
	// where there is none.
	match, parent []int
	// ends is where the statement holding a token ends: at its ';', at a
	// Jinja tag or at the end of the file.
	ends []int
	// starts marks the tokens that begin a statement after procedural
	// scaffolding (BEGIN, IF ... THEN, ELSE) that script drops.
	starts []bool
	// typed marks the brackets of typed array constructors (ARRAY<T>[...]),
	// which are no array literals of their own.
	typed map[int]bool
	// merge is the MERGE whose WHEN clauses are being read, -1 outside one.
	merge int
	// scans holds, per purpose, the start and the result of the last scan.
	scans map[string][2]int
	edits []sqltext.Edit
	marks []mark
	// upper holds each word token in upper case once asked for: the
	// rewrites ask about every word and its neighbours, and SQL written
	// in lower case would otherwise allocate at each question.
	upper []string
}

// dialectEdits rewrites Snowflake, BigQuery and Databricks/Spark syntax into
// SQL the PostgreSQL parser reads, and marks what each rewrite removed so
// rules still see the user's intent. What it does not recognise is left as
// written, for the parser to report.
func dialectEdits(src string, toks, code []sqltext.Token) ([]sqltext.Edit, []mark) {
	d := &dialect{src: src, code: code, merge: -1, scans: map[string][2]int{}, typed: map[int]bool{}}
	d.index()
	for _, t := range toks {
		// PostgreSQL reads "#" as an operator, so a BigQuery comment
		// would reach the parser as code.
		if t.Kind == sqltext.LineComment && src[t.Start] == '#' {
			d.replace(t.Start, t.Start+1, "--")
		}
	}
	d.script()
	// The brackets around a subscripted call are inserted before the
	// rewrites of the call's own name, which start at the same offset and
	// would otherwise win.
	for i := range d.code {
		if d.punct(i, '[') || d.punct(i, '.') {
			d.subscriptedCall(i)
		}
	}
	for i := range d.code {
		d.at(i)
	}
	return d.edits, d.marks
}

// index fills match, parent and ends.
func (d *dialect) index() {
	n := len(d.code)
	d.match, d.parent, d.ends = make([]int, n), make([]int, n), make([]int, n)
	var open []int
	for k := range d.code {
		d.match[k], d.parent[k] = -1, -1
		if len(open) > 0 {
			d.parent[k] = open[len(open)-1]
		}
		switch {
		case d.punct(k, '(') || d.punct(k, '['):
			open = append(open, k)
		case (d.punct(k, ')') || d.punct(k, ']')) && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			d.match[o], d.match[k], d.parent[k] = k, o, d.parent[o]
		}
	}
	next := n
	for k := n - 1; k >= 0; k-- {
		if d.code[k].Kind == sqltext.JinjaTag || (d.punct(k, ';') && d.parent[k] < 0) {
			next = k
		}
		d.ends[k] = next
	}
}

// codeTokens drops space and comments, so rewrites look at neighbours in
// the SQL itself.
func codeTokens(toks []sqltext.Token) []sqltext.Token {
	// Counted first: the slices are kept per statement, and sizing them
	// for every token would double what they hold.
	n := 0
	for _, t := range toks {
		if t.IsCode() {
			n++
		}
	}
	out := make([]sqltext.Token, 0, n)
	for _, t := range toks {
		if t.IsCode() {
			out = append(out, t)
		}
	}
	return out
}

// at applies the rewrites that start at code token i.
func (d *dialect) at(i int) {
	t := d.code[i]
	switch t.Kind {
	case sqltext.Backtick:
		d.replace(t.Start, t.End, backtickToQuoted(t.Text(d.src)))
	case sqltext.String:
		d.stringLiteral(i)
	case sqltext.QuotedIdent:
		d.escapedIdent(i)
	case sqltext.Punct:
		if d.punct(i, '[') {
			d.arrayLiteral(i)
		}
	case sqltext.Param:
		switch text := t.Text(d.src); {
		case text[0] == '@' && d.queryParam(i):
			// A BigQuery query parameter keeps its name, as an
			// identifier: read as PostgreSQL's prefix operator @ it would
			// fail before a reserved word (@end).
			d.replace(t.Start, t.End, sqltext.QuoteIdent(text))
		case text[0] == ':' && !d.path(i):
			// A bind variable keeps its name, as an identifier, so rules
			// never mistake it for a literal.
			d.replace(t.Start, t.End, sqltext.QuoteIdent(text))
		case text[0] == '$' && d.punct(i-1, '.') && d.touch(i-1, i):
			// A stage file's column by position, qualified: t.$1.
			d.replace(t.Start, t.End, sqltext.QuoteIdent(text))
		}
	case sqltext.Operator:
		switch t.Text(d.src) {
		case "*":
			d.starModifiers(i)
		case ":":
			d.path(i)
		case "$":
			// A Snowflake session variable, named as a bind variable is.
			if i+1 < len(d.code) && d.code[i+1].Kind == sqltext.Word && d.touch(i, i+1) {
				d.replace(t.Start, d.code[i+1].End, sqltext.QuoteIdent(d.src[t.Start:d.code[i+1].End]))
			}
		}
	case sqltext.Word:
		d.keyword(i)
	}
}

func (d *dialect) keyword(i int) {
	switch d.word(i) {
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
			if d.word(end-2) == "AS" && d.code[end-1].Kind == sqltext.String && end-2 > i+1 {
				d.drop(end-2, end-1)
			}
		}
	case "IN":
		// BigQuery's membership test in an array.
		if d.word(i+1) == "UNNEST" && d.punct(i+2, '(') {
			if d.word(i-1) == "NOT" {
				d.replace(d.code[i-1].Start, d.code[i+1].End, "<> ALL")
			} else {
				d.replace(d.code[i].Start, d.code[i+1].End, "= ANY")
			}
		}
	case "WITH":
		if d.word(i+1) == "OFFSET" {
			d.withOffset(i)
		}
	case "OFFSET", "SAFE_OFFSET", "ORDINAL", "SAFE_ORDINAL":
		d.arrayIndex(i)
	case "FORMAT":
		// BigQuery's CAST(x AS STRING FORMAT 'YYYY-MM'): the format
		// changes the text, not what is read.
		if o := d.parent[i]; o > 0 && i+1 < len(d.code) && d.code[i+1].Kind == sqltext.String && d.punct(i+2, ')') {
			if w := d.word(o - 1); w == "CAST" || w == "SAFE_CAST" || w == "TRY_CAST" {
				d.drop(i, i+1)
			}
		}
	case "LATERAL":
		if d.word(i+1) == "VIEW" {
			d.lateralView(i)
		}
	case "TABLE":
		d.tableFunction(i)
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
		if d.dmlStart(i) && d.word(i+1) != "FROM" && d.nameStart(i+1) {
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
		// Spark's PURGE skips the trash; the drop is the same to rules.
		if end := d.stmtEnd(i); d.stmtStart(i) && d.word(i+1) == "TABLE" && d.word(end-1) == "PURGE" && end-1 > i+1 {
			d.drop(end-1, end-1)
		}
	case "OPTIMIZE", "VACUUM", "ANALYZE":
		d.maintenance(i)
	case "QUALIFY":
		d.qualify(i)
	case "GROUP":
		// GROUP BY ALL groups by every selected column that is not an
		// aggregate; the placeholder parses, the flag keeps the meaning.
		if d.word(i+1) == "BY" && d.word(i+2) == "ALL" && d.selectClauseEnds(i+3) {
			d.replaceTok(i+2, "()")
			d.mark(i, GroupByAll)
		}
	case "TRY_CAST", "SAFE_CAST":
		// Returning NULL instead of failing changes no rule's reading.
		if d.punct(i+1, '(') {
			d.replaceTok(i, "CAST")
		}
	case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP",
		"CURRENT_USER", "SESSION_USER", "CURRENT_ROLE", "CURRENT_CATALOG":
		d.niladic(i)
	case "IGNORE", "RESPECT":
		if d.word(i+1) == "NULLS" {
			d.drop(i, i+1)
		}
	case "LIMIT":
		// BigQuery's ARRAY_AGG(x ORDER BY y LIMIT 5) caps an aggregate; a
		// subquery's LIMIT is PostgreSQL's own.
		if o := d.parent[i]; o > 0 && d.code[o-1].Kind == sqltext.Word && d.word(o+1) != "SELECT" && d.word(o+1) != "WITH" &&
			i+1 < len(d.code) && d.code[i+1].Kind == sqltext.Number && d.punct(i+2, ')') {
			d.drop(i, i+1)
		}
	case "INTERVAL":
		d.interval(i)
	case "FOR", "VERSION", "SYSTEM_TIME", "SYSTEM_VERSION":
		d.timeTravel(i)
	case "AT", "BEFORE":
		// Snowflake's time travel, AT (OFFSET => -3600): the relation
		// read is the same.
		if d.punct(i+1, '(') && d.op(i+3, "=>") && d.nameEnded(i) {
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
		if i+1 < len(d.code) && d.code[i+1].Kind == sqltext.QuotedIdent {
			if s := d.code[i+1].Text(d.src); len(s) > 2 && sqltext.IsDigit(s[1]) {
				d.replaceTok(i+1, quoteString(s[1:len(s)-1]))
			}
		}
		// BigQuery's conversion functions TIMESTAMP(expr) and TIME(expr):
		// PostgreSQL reads the words as type names whose bracket holds a
		// precision, and calls the function only by a quoted name.
		if w := d.word(i); (w == "TIMESTAMP" || w == "TIME") && d.punct(i+1, '(') && !d.punct(i-1, '.') &&
			!(i+3 < len(d.code) && d.code[i+2].Kind == sqltext.Number && d.punct(i+3, ')')) {
			d.replaceTok(i, sqltext.QuoteIdent(strings.ToLower(w)))
		}
	case "ARRAY", "STRUCT", "MAP":
		d.angleType(i)
		if d.word(i) == "STRUCT" && d.punct(i+1, '(') && !d.punct(i-1, '.') {
			d.replaceTok(i, "ROW")
			d.structFields(i + 1)
		}
	case "FROM", "JOIN":
		d.stage(i + 1)
	case "RLIKE", "REGEXP":
		if i+1 < len(d.code) && d.code[i+1].Kind == sqltext.String {
			if d.word(i-1) == "NOT" {
				d.replace(d.code[i-1].Start, d.code[i].End, "!~")
			} else {
				d.replaceTok(i, "~")
			}
		}
	case "MINUS":
		// Snowflake's name for EXCEPT.
		if d.word(i+1) == "SELECT" || d.word(i+1) == "ALL" || d.punct(i+1, '(') {
			d.replaceTok(i, "EXCEPT")
		}
	}
}

// create handles CREATE [OR REPLACE] ... TABLE/VIEW. PostgreSQL has no OR
// REPLACE for tables or materialized views and none of the warehouses'
// table modifiers and storage clauses.
func (d *dialect) create(i int) {
	if !d.stmtStart(i) {
		return
	}
	j := i + 1
	orReplace := d.word(j) == "OR" && d.word(j+1) == "REPLACE"
	if orReplace {
		j += 2
	}
	var modifiers []int
	for more := true; more; {
		switch d.word(j) {
		case "TRANSIENT", "VOLATILE", "SECURE", "SNAPSHOT":
			modifiers = append(modifiers, j)
			j++
		case "TEMP", "TEMPORARY", "LOCAL", "GLOBAL", "MATERIALIZED", "RECURSIVE":
			j++
		default:
			more = false
		}
	}
	kind := d.word(j)
	switch {
	case kind == "FUNCTION" || (kind == "TABLE" || kind == "AGGREGATE") && d.word(j+1) == "FUNCTION":
		d.function(i, j, orReplace)
		return
	case kind == "SCHEMA" || kind == "DATABASE":
		d.cloneSchema(i, j, orReplace)
		return
	case kind != "TABLE" && kind != "VIEW":
		return
	}
	for _, m := range modifiers {
		d.drop(m, m)
	}
	if orReplace {
		d.mark(i, CreateOrReplace)
		if kind == "TABLE" || d.word(j-1) == "MATERIALIZED" {
			d.drop(i+1, i+2)
		}
	}
	d.relationTail(j+1, d.stmtEnd(i))
}

// relationTail handles what follows CREATE ... TABLE/VIEW: the name, a copy
// of another table, a column list, then clauses up to AS.
func (d *dialect) relationTail(j, end int) {
	if d.word(j) == "IF" && d.word(j+1) == "NOT" && d.word(j+2) == "EXISTS" {
		j += 3
	}
	n := d.nameEnd(j)
	if n == j {
		return
	}
	j = n
	k := j
	if d.word(k) == "SHALLOW" || d.word(k) == "DEEP" {
		k++
	}
	switch {
	case d.word(k) == "CLONE" || (d.word(k) == "COPY" && d.word(k+1) != "GRANTS"):
		// A zero-copy clone or BigQuery's table copy fills the new table
		// with the source's rows, which is what AS TABLE says. Time travel
		// and options after the source do not change which relation is
		// read.
		src := k + 1
		srcEnd := d.nameEnd(src)
		if srcEnd == src {
			return
		}
		d.replace(d.code[j].Start, d.code[k].End, "AS TABLE")
		if srcEnd < end {
			d.drop(srcEnd, end-1)
		}
		return
	case d.word(j) == "LIKE":
		srcEnd := d.nameEnd(j + 1)
		if srcEnd == j+1 || d.code[srcEnd-1].Kind == sqltext.JinjaExpr {
			return
		}
		last := d.code[srcEnd-1]
		// The bracket closes in the replacement of the name's last part:
		// an insertion at the end of a statement would fall outside it.
		text := last.Text(d.src)
		if last.Kind == sqltext.Backtick {
			text = backtickToQuoted(text)
		}
		d.replaceTok(j, "(LIKE")
		d.replace(last.Start, last.End, text+")")
		j = srcEnd
	case d.punct(j, '('):
		c := d.closing(j)
		if c < 0 {
			return
		}
		d.columns(j, c)
		j = c + 1
	}
	for j < end && d.word(j) != "AS" {
		n, warehouse := d.clause(j)
		if n == 0 {
			return
		}
		k := d.clauseEnd(j+n, end)
		if warehouse {
			d.drop(j, k-1)
		}
		j = k
	}
}

// clause tells whether a clause of CREATE TABLE starts at j: n is the
// number of its keywords, warehouse whether PostgreSQL lacks it.
func (d *dialect) clause(j int) (n int, warehouse bool) {
	w, w1 := d.word(j), d.word(j+1)
	switch {
	case w == "PARTITION" && w1 == "BY":
		// PostgreSQL's own partitioning names a strategy and a column
		// list; BigQuery's and Snowflake's is an expression.
		s := d.word(j + 2)
		return 2, !((s == "RANGE" || s == "LIST" || s == "HASH") && d.punct(j+3, '('))
	case w1 == "BY" && (w == "PARTITIONED" || w == "CLUSTER" || w == "CLUSTERED" || w == "SORTED"),
		w == "STORED" && w1 == "AS", w == "ROW" && w1 == "FORMAT", w == "COPY" && w1 == "GRANTS",
		w == "DEFAULT" && w1 == "COLLATE":
		return 2, true
	case w == "OPTIONS" || w == "TBLPROPERTIES" || w == "LOCATION" || w == "COMMENT":
		return 1, true
	case w == "WITH" && (w1 == "TAG" || w1 == "ROW" || w1 == "AGGREGATION"):
		return 1, true
	case w == "WITH" && d.punct(j+1, '('), w == "INHERITS", w == "TABLESPACE", w == "USING", w == "WITHOUT":
		return 1, false
	case w == "ON" && w1 == "COMMIT":
		return 2, false
	case w != "" && d.op(j+1, "="):
		// Snowflake's table parameters: DATA_RETENTION_TIME_IN_DAYS = 1.
		return 1, true
	}
	return 0, false
}

// clauseEnd returns where the CREATE TABLE clause whose body starts at j
// ends: at the next clause, at AS, or at end.
func (d *dialect) clauseEnd(j, end int) int {
	depth := 0
	for k := j; k < end; k++ {
		switch {
		case d.punct(k, '(') || d.punct(k, '['):
			depth++
		case d.punct(k, ')') || d.punct(k, ']'):
			depth--
			if depth < 0 {
				return k
			}
		case d.code[k].Kind == sqltext.JinjaTag:
			return k
		case depth == 0:
			if n, _ := d.clause(k); n > 0 || d.word(k) == "AS" {
				return k
			}
		}
	}
	return end
}

// columns drops the column options PostgreSQL lacks between the brackets
// at open and close.
func (d *dialect) columns(open, close int) {
	for k := open + 1; k < close; k++ {
		switch d.word(k) {
		case "OPTIONS":
			if c := d.closing(k + 1); d.punct(k+1, '(') && c > 0 && c < close {
				d.drop(k, c)
				k = c
			}
		case "COMMENT":
			if k+1 < close && d.code[k+1].Kind == sqltext.String {
				d.drop(k, k+1)
				k++
			}
		case "NOT":
			// BigQuery's unenforced keys are documentation.
			if d.word(k+1) == "ENFORCED" {
				d.drop(k, k+1)
			}
		case "GENERATED":
			// Databricks computes generated columns on write, as
			// PostgreSQL's STORED ones.
			if d.word(k+1) == "ALWAYS" && d.word(k+2) == "AS" && d.punct(k+3, '(') {
				if c := d.closing(k + 3); c > 0 && c < close && d.word(c+1) != "STORED" {
					d.replace(d.code[c].End, d.code[c].End, " STORED")
				}
			}
		}
	}
}

// insert handles INSERT OVERWRITE, Hive's TABLE and PARTITION, Databricks'
// REPLACE WHERE and BY NAME, and BigQuery's INSERT without INTO.
func (d *dialect) insert(i int) {
	if !d.dmlStart(i) {
		return
	}
	j := i + 1
	overwrite := false
	switch d.word(j) {
	case "OVERWRITE":
		overwrite = true
		d.mark(i, InsertOverwrite)
		if d.word(j+1) == "INTO" { // Snowflake
			d.drop(j, j)
			j++
		} else {
			d.replaceTok(j, "INTO")
		}
		j++
	case "INTO":
		j++
	case "ALL", "FIRST", "VALUES", "DEFAULT":
		return
	default:
		if !d.nameStart(j) {
			return
		}
		d.replaceTok(i, "INSERT INTO")
	}
	if d.word(j) == "TABLE" {
		d.drop(j, j)
		j++
	}
	n := d.nameEnd(j)
	if n == j {
		return
	}
	j = n
	if d.word(j) == "PARTITION" && d.punct(j+1, '(') {
		c := d.closing(j + 1)
		if c < 0 {
			return
		}
		d.drop(j, c)
		if overwrite {
			d.mark(i, OverwritePartition)
		}
		j = c + 1
	}
	if d.word(j) == "IF" && d.word(j+1) == "NOT" && d.word(j+2) == "EXISTS" {
		d.drop(j, j+2)
		j += 3
	}
	switch {
	case d.word(j) == "REPLACE" && d.word(j+1) == "WHERE":
		end := d.scanTo(j+2, "replace", d.replacingQuery)
		if end < len(d.code) && d.replacingQuery(end) {
			d.drop(j, end-1)
			d.mark(i, ReplaceWhere)
		}
	case d.word(j) == "BY" && d.word(j+1) == "NAME":
		d.drop(j, j+1)
	}
}

// mergeInto handles MERGE without INTO (Snowflake, BigQuery) and with
// Databricks' schema evolution, and opens the statement whose WHEN clauses
// mergeWhen and mergeAction read.
func (d *dialect) mergeInto(i int) {
	if !d.dmlStart(i) {
		return
	}
	j := i + 1
	if d.word(j) == "WITH" && d.word(j+1) == "SCHEMA" && d.word(j+2) == "EVOLUTION" {
		d.drop(j, j+2)
		j += 3
	}
	if d.word(j) != "INTO" {
		if !d.nameStart(j) {
			return
		}
		d.replaceTok(i, "MERGE INTO")
	}
	d.merge = i
}

// inMerge reports whether token k belongs to the MERGE being read.
func (d *dialect) inMerge(k int) bool {
	return d.merge >= 0 && k < d.ends[d.merge]
}

// mergeWhen rewrites the WHEN clauses PostgreSQL 16 lacks.
func (d *dialect) mergeWhen(k int) {
	if !d.inMerge(k) || d.word(k+1) != "NOT" || d.word(k+2) != "MATCHED" || d.word(k+3) != "BY" {
		return
	}
	switch d.word(k + 4) {
	case "TARGET":
		d.drop(k+3, k+4)
	case "SOURCE":
		// Target rows the source lacks become matched rows: the action
		// and its condition keep their place and positions.
		d.replace(d.code[k+1].Start, d.code[k+4].End, "MATCHED")
		d.mark(d.merge, MergeBySource)
	}
}

// mergeAction rewrites the actions that write every column.
func (d *dialect) mergeAction(k int) {
	if !d.inMerge(k) {
		return
	}
	switch {
	case d.word(k+1) == "UPDATE" && d.word(k+2) == "SET" && d.op(k+3, "*"):
		// A column named "*" reads as "every column" to a person, and the
		// flag says so to rules.
		d.replaceTok(k+3, `"*" = DEFAULT`)
		d.mark(d.merge, MergeAllColumns)
	case d.word(k+1) == "INSERT" && (d.op(k+2, "*") || d.word(k+2) == "ROW"):
		d.replaceTok(k+2, "DEFAULT VALUES")
		d.mark(d.merge, MergeAllColumns)
	}
}

// copyInto handles Snowflake's and Databricks' COPY INTO. A load keeps its
// target and column list as written and reads from STDIN, whatever the
// stage, path, query and options were. An unload (COPY INTO @stage or
// 'location' FROM source) writes no relation: it becomes COPY source TO
// STDOUT, with the source table or query kept for rules to read.
func (d *dialect) copyInto(i int) {
	if !d.stmtStart(i) || d.word(i+1) != "INTO" || i+2 >= len(d.code) {
		return
	}
	end := d.stmtEnd(i)
	tail := d.code[end-1].End
	target := d.code[i+2]
	if text := target.Text(d.src); target.Kind == sqltext.String || (target.Kind == sqltext.Param || target.Kind == sqltext.Operator) && text[0] == '@' {
		from := d.scanTo(i+3, "from", func(k int) bool { return d.word(k) == "FROM" })
		if from >= end || d.word(from) != "FROM" {
			return
		}
		srcEnd := d.nameEnd(from + 1)
		if d.punct(from+1, '(') {
			srcEnd = d.closing(from+1) + 1
		}
		if srcEnd <= from+1 {
			return
		}
		d.replace(d.code[i].Start, d.code[from].End, "COPY")
		d.replace(d.code[srcEnd-1].End, tail, " TO STDOUT")
		return
	}
	n := d.nameEnd(i + 2)
	if n == i+2 {
		return
	}
	if d.punct(n, '(') {
		n = d.closing(n) + 1
	}
	if n <= i+2 || d.word(n) != "FROM" {
		return
	}
	d.replace(d.code[i].Start, d.code[i+1].End, "COPY")
	d.replace(d.code[n].Start, tail, "FROM STDIN")
	d.mark(i, CopyInto)
}

// use turns Snowflake's and Databricks' USE into a SET of a setting that
// names what was chosen; a schema becomes search_path, which it is.
func (d *dialect) use(i int) {
	end := d.stmtEnd(i)
	if !d.stmtStart(i) {
		return
	}
	setting := "search_path"
	j := i + 1
	switch w := d.word(j); w {
	case "WAREHOUSE", "ROLE", "DATABASE", "CATALOG":
		setting = "use_" + strings.ToLower(w)
		j++
	case "SCHEMA":
		j++
	case "SECONDARY":
		setting = "use_secondary_roles"
		j += 2
	}
	if j >= end {
		return
	}
	name := d.src[d.code[j].Start:d.code[end-1].End]
	d.replace(d.code[i].Start, d.code[end-1].End, "SET "+setting+" TO '"+strings.ReplaceAll(name, "'", "''")+"'")
}

// alter handles Snowflake's ALTER SESSION and ALTER TABLE ... SWAP WITH.
func (d *dialect) alter(i int) {
	if !d.stmtStart(i) {
		return
	}
	switch d.word(i + 1) {
	case "SESSION":
		switch d.word(i + 2) {
		case "SET":
			// One replacement from ALTER on keeps the statement's start there.
			d.replace(d.code[i].Start, d.code[i+2].End, "SET")
			// PostgreSQL's SET takes one parameter: the first is kept.
			end := d.stmtEnd(i)
			if more := d.scanTo(i+3, "session", func(k int) bool { return d.punct(k, ',') && d.op(k+2, "=") }); more < end && d.punct(more, ',') {
				d.drop(more, end-1)
			}
		case "UNSET":
			d.replace(d.code[i].Start, d.code[i+2].End, "RESET")
		}
	case "TABLE":
		j := i + 2
		if d.word(j) == "IF" && d.word(j+1) == "EXISTS" {
			j += 2
		}
		n := d.nameEnd(j)
		if n > j && d.word(n) == "SWAP" && d.word(n+1) == "WITH" && d.nameEnd(n+2) > n+2 {
			// INHERIT is the ALTER TABLE form that names a second
			// relation, so both keep their positions; the flag says the
			// two tables trade contents.
			d.replace(d.code[n].Start, d.code[n+1].End, "INHERIT")
			d.mark(i, SwapWith)
		}
		if n > j && d.word(n) == "ADD" && d.word(n+1) == "COLUMNS" && d.punct(n+2, '(') {
			// Spark adds a bracketed list of columns; PostgreSQL one
			// ADD COLUMN per column.
			c := d.closing(n + 2)
			if c < 0 {
				return
			}
			d.replace(d.code[n+1].Start, d.code[n+2].End, "COLUMN ")
			for k := n + 3; k < c; k++ {
				switch {
				case d.punct(k, '(') || d.punct(k, '['):
					k = max(d.match[k], k)
				case d.punct(k, ','):
					d.replaceTok(k, ", ADD COLUMN")
				}
			}
			d.drop(c, c)
		}
	}
}

// truncate handles TRUNCATE IF EXISTS (Snowflake) and TRUNCATE ...
// PARTITION (Spark), which PostgreSQL lacks.
func (d *dialect) truncate(i int) {
	if !d.stmtStart(i) {
		return
	}
	j := i + 1
	if d.word(j) == "TABLE" {
		j++
	}
	if d.word(j) == "IF" && d.word(j+1) == "EXISTS" {
		d.drop(j, j+1)
		j += 2
	}
	n := d.nameEnd(j)
	if n > j && d.word(n) == "PARTITION" && d.punct(n+1, '(') {
		if c := d.closing(n + 1); c > 0 {
			d.drop(n, c)
			d.mark(i, TruncatePartition)
		}
	}
}

// maintenance reduces Databricks' table maintenance (OPTIMIZE ... ZORDER
// BY, VACUUM ... RETAIN, ANALYZE TABLE ... COMPUTE STATISTICS) to the
// PostgreSQL statement of the same kind on the same table: none of them
// changes rows.
func (d *dialect) maintenance(i int) {
	if !d.stmtStart(i) {
		return
	}
	j := i + 1
	if d.word(i) == "ANALYZE" {
		if d.word(j) != "TABLE" {
			return
		}
		d.drop(j, j)
		j++
	}
	n := d.nameEnd(j)
	end := d.stmtEnd(i)
	if n == j || n >= end {
		return
	}
	switch d.word(i) {
	case "OPTIMIZE":
		d.replaceTok(i, "VACUUM")
	case "VACUUM":
		// PostgreSQL's own options come before the table.
		if w := d.word(n); w != "RETAIN" && w != "DRY" && w != "LITE" && w != "FULL" {
			return
		}
	}
	d.drop(n, end-1)
}

// qualify drops a QUALIFY filter, which PostgreSQL lacks, up to the end of
// its query block.
func (d *dialect) qualify(i int) {
	if d.punct(i-1, ',') || d.punct(i-1, '.') || d.word(i-1) == "SELECT" || d.word(i-1) == "AS" {
		return // a column named qualify
	}
	end := d.scanTo(i+1, "qualify", func(k int) bool {
		switch d.word(k) {
		case "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "WINDOW", "FETCH", "OFFSET":
			return true
		}
		return false
	})
	if end > i+1 {
		d.drop(i, end-1)
		d.mark(i, Qualify)
	}
}

// selectClauseEnds reports whether the clause before k ends at k.
func (d *dialect) selectClauseEnds(k int) bool {
	if k >= len(d.code) || d.punct(k, ';') || d.punct(k, ')') || d.code[k].Kind == sqltext.JinjaTag {
		return true
	}
	switch d.word(k) {
	case "HAVING", "QUALIFY", "ORDER", "LIMIT", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "MINUS":
		return true
	}
	return false
}

// niladic drops the parentheses warehouses allow after PostgreSQL's
// keyword functions (CURRENT_DATE(), CURRENT_TIMESTAMP()). BigQuery's
// time zone argument goes too: the value still denotes "now", which is
// what rules look for.
func (d *dialect) niladic(i int) {
	if !d.punct(i+1, '(') || d.punct(i-1, '.') {
		return
	}
	c := d.closing(i + 1)
	if c < 0 {
		return
	}
	switch d.word(i) {
	case "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP":
		if c == i+3 && d.code[i+2].Kind == sqltext.Number {
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
		if d.op(k, "-") && k+1 < len(d.code) && d.touch(k, k+1) {
			sign = "-"
			k++
		}
		if k+1 >= len(d.code) || d.code[k].Kind != sqltext.Number || !intervalUnits[d.word(k+1)] {
			break
		}
		parts = append(parts, sign+d.code[k].Text(d.src)+" "+d.code[k+1].Text(d.src))
		j = k + 2
	}
	if len(parts) > 0 {
		d.replace(d.code[i+1].Start, d.code[j-1].End, "'"+strings.Join(parts, " ")+"'")
		return
	}
	// A count that is no literal (INTERVAL @days DAY, INTERVAL n DAY)
	// multiplies one unit.
	k := i + 1
	switch {
	case k >= len(d.code):
		return
	case d.punct(k, '('):
		k = d.closing(k)
	case d.code[k].Kind == sqltext.Param, d.code[k].Kind == sqltext.Word && !intervalUnits[d.word(k)] && !notNames[d.word(k)]:
	default:
		return
	}
	if k < 0 || !intervalUnits[d.word(k+1)] {
		return
	}
	d.replaceTok(i, "(")
	d.replaceTok(k+1, "* INTERVAL '1 "+d.code[k+1].Text(d.src)+"')")
}

// timeTravel drops Databricks' VERSION AS OF / TIMESTAMP AS OF and
// BigQuery's FOR SYSTEM_TIME AS OF after a relation: the relation read is
// the same. It reports whether i starts such a clause.
func (d *dialect) timeTravel(i int) bool {
	j := i
	if d.word(j) == "FOR" {
		j++
	}
	switch d.word(j) {
	case "VERSION", "TIMESTAMP", "SYSTEM_TIME", "SYSTEM_VERSION":
	default:
		return false
	}
	if d.word(j+1) != "AS" || d.word(j+2) != "OF" || !d.nameEnded(i) {
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
	switch d.code[i-1].Kind {
	case sqltext.Word:
		return !notNames[d.word(i-1)] && d.word(i-1) != "AS"
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
		if e == k || e >= len(d.code) || d.code[e].Kind != sqltext.Operator {
			return e
		}
		k = e + 1
	}
}

func (d *dialect) operand(k int) int {
	if k >= len(d.code) {
		return k
	}
	switch t := d.code[k]; {
	case t.Kind == sqltext.String, t.Kind == sqltext.Number, t.Kind == sqltext.Param:
		return k + 1
	case d.punct(k, '('):
		return max(d.closing(k)+1, k)
	case d.word(k) == "INTERVAL":
		e := d.operand(k + 1)
		if intervalUnits[d.word(e)] {
			e++
		}
		return e
	case t.Kind == sqltext.Word && d.punct(k+1, '('):
		return max(d.closing(k+1)+1, k)
	case t.Kind == sqltext.Word && k+1 < len(d.code) && d.code[k+1].Kind == sqltext.String:
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
	if !d.op(i+1, "<") || !d.touch(i, i+1) {
		return
	}
	depth, nested := 0, false
	for k := i + 1; k < len(d.code) && k < i+400; k++ {
		t := d.code[k]
		switch {
		case t.Kind == sqltext.Operator:
			for c := t.Start; c < t.End; c++ {
				switch d.src[c] {
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
			d.punct(k, ','), d.punct(k, '('), d.punct(k, ')'), t.Kind == sqltext.Param && d.src[t.Start] == ':':
		default:
			return
		}
	}
}

// closeAngle writes the rewrite of the type at i whose closing '>' is at
// offset c in token k.
func (d *dialect) closeAngle(i, k, c int, nested bool) {
	kind := strings.ToLower(d.word(i))
	if c+1 == d.code[k].End && (d.punct(k+1, '[') || d.punct(k+1, '(')) {
		// A typed constructor: the values' own types say as much.
		switch {
		case kind == "array" && d.punct(k+1, '['):
			d.replace(d.code[i].End, c+1, "")
			d.typed[k+1] = true
		case kind == "struct" && d.punct(k+1, '('):
			d.replace(d.code[i].Start, c+1, "ROW")
			d.structFields(k + 1)
		}
		return
	}
	switch {
	case kind != "array":
		d.replace(d.code[i].Start, c+1, kind)
	case nested:
		d.replace(d.code[i].Start, c+1, strings.ToLower(d.word(i+2))+"[]")
	default:
		d.replace(d.code[i].Start, d.code[i+1].End, "")
		d.replace(c, c+1, "[]")
	}
}

// stage rewrites a Snowflake stage read in FROM (@stage/path, @%table, @~)
// into a relation named after it, without its FILE_FORMAT and PATTERN.
func (d *dialect) stage(j int) {
	if j >= len(d.code) || (d.code[j].Kind != sqltext.Param && d.code[j].Kind != sqltext.Operator) || d.code[j].Text(d.src)[0] != '@' {
		return
	}
	k := j
	for k+1 < len(d.code) && d.touch(k, k+1) && !(d.code[k+1].Kind == sqltext.Punct && strings.IndexByte("(),;", d.src[d.code[k+1].Start]) >= 0) {
		k++
	}
	d.replace(d.code[j].Start, d.code[k].End, sqltext.QuoteIdent(d.src[d.code[j].Start:d.code[k].End]))
	if d.punct(k+1, '(') && d.op(k+3, "=>") {
		if c := d.closing(k + 1); c > 0 {
			d.drop(k+1, c)
		}
	}
}

// path rewrites Snowflake's semi-structured access (src:a.b[0], $1:"Key")
// into PostgreSQL's -> operators, bracketed so a following :: cast applies
// to the whole path. It reports whether i starts such a path.
func (d *dialect) path(i int) bool {
	b := i - 1
	if b < 0 || !d.touch(b, i) {
		return false
	}
	switch base := d.code[b]; {
	case base.Kind == sqltext.Word, base.Kind == sqltext.QuotedIdent, base.Kind == sqltext.Param && d.src[base.Start] == '$':
		if d.punct(b-1, '[') && d.punct(i+1, ']') {
			return false // an array slice a[lo:hi]
		}
	case d.punct(b, ')') && d.match[b] > 0 && d.code[d.match[b]-1].Kind == sqltext.Word:
		// The path of a call's result, PARSE_URL(u):query.
		b = d.match[b] - 1
	default:
		return false
	}
	for b >= 2 && d.punct(b-1, '.') && d.touch(b-1, b) && d.touch(b-2, b-1) && (d.code[b-2].Kind == sqltext.Word || d.code[b-2].Kind == sqltext.QuotedIdent) {
		b -= 2
	}
	var edits []sqltext.Edit
	k := i
	switch {
	case d.code[k].Kind == sqltext.Param:
		edits = append(edits, sqltext.Edit{Start: d.code[k].Start, End: d.code[k].End, Text: "->" + quoteString(d.code[k].Text(d.src)[1:])})
		k++
	case k+1 < len(d.code) && d.code[k+1].Kind == sqltext.QuotedIdent && d.touch(k, k+1):
		edits = append(edits, sqltext.Edit{Start: d.code[k].Start, End: d.code[k+1].End, Text: "->" + quoteString(identName(d.code[k+1].Text(d.src)))})
		k += 2
	default:
		return false
	}
segments:
	for k+1 < len(d.code) && d.touch(k-1, k) {
		switch {
		case d.punct(k, '.') && d.touch(k, k+1) && d.code[k+1].Kind == sqltext.Word:
			edits = append(edits, sqltext.Edit{Start: d.code[k].Start, End: d.code[k+1].End, Text: "->" + quoteString(d.code[k+1].Text(d.src))})
		case d.punct(k, '.') && d.touch(k, k+1) && d.code[k+1].Kind == sqltext.QuotedIdent:
			edits = append(edits, sqltext.Edit{Start: d.code[k].Start, End: d.code[k+1].End, Text: "->" + quoteString(identName(d.code[k+1].Text(d.src)))})
		case d.punct(k, '[') && d.punct(k+2, ']'):
			edits = append(edits, sqltext.Edit{Start: d.code[k].Start, End: d.code[k].End, Text: "->"}, sqltext.Edit{Start: d.code[k+2].Start, End: d.code[k+2].End, Text: ""})
			k++
		default:
			break segments
		}
		k += 2
	}
	// The closing bracket goes into the last segment's replacement: an
	// insertion at the end of a statement would fall outside it.
	edits[len(edits)-1].Text += ")"
	d.replace(d.code[b].Start, d.code[b].Start, "(")
	d.edits = append(d.edits, edits...)
	return true
}

// starModifiers drops what Snowflake (EXCLUDE, RENAME, REPLACE), BigQuery
// (EXCEPT, REPLACE) and Databricks (EXCEPT) write after SELECT *: the
// star still stands for the relation's columns.
func (d *dialect) starModifiers(i int) {
	j := i + 1
	for {
		w := d.word(j)
		if w != "EXCEPT" && w != "EXCLUDE" && w != "REPLACE" && w != "RENAME" {
			return
		}
		switch {
		case d.punct(j+1, '('):
			if s := d.word(j + 2); s == "SELECT" || s == "WITH" {
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
				if d.word(n) != "AS" || d.nameEnd(n+1) == n+1 {
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
	t := d.code[i]
	s := t.Text(d.src)
	if s[0] == '$' {
		return // a dollar-quoted string: PostgreSQL's own, no escapes inside
	}
	n := sqltext.StringPrefix(s, 0)
	prefix := strings.ToLower(s[:n])
	if strings.ContainsAny(prefix, "enx") {
		return // PostgreSQL's own
	}
	body, raw := s[n:], strings.Contains(prefix, "r")
	switch {
	case sqltext.TripleQuoted(body, 0) && len(body) >= 6:
		d.replace(t.Start, t.End, quoteString(body[3:len(body)-3]))
	case body[0] == '"' && raw:
		d.replace(t.Start, t.End, quoteString(body[1:len(body)-1]))
	case body[0] == '"':
		d.replace(t.Start, t.End, escapedString(body))
	case raw:
		d.replace(t.Start, t.Start+n, "")
	case prefix == "" && unescapedEnd(body) < len(body):
		d.replace(t.Start, t.Start, "E")
	}
}

// escapedIdent rewrites a BigQuery double-quoted string that escapes a
// quote with a backslash, which the lexer read whole, into an E string;
// PostgreSQL would end it at the escaped quote.
func (d *dialect) escapedIdent(i int) {
	t := d.code[i]
	if s := t.Text(d.src); unescapedEnd(s) < len(s) {
		d.replace(t.Start, t.End, escapedString(s))
	}
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

// replace records an edit of the original text.
func (d *dialect) replace(start, end int, text string) {
	d.edits = append(d.edits, sqltext.Edit{Start: start, End: end, Text: text})
}

// replaceTok replaces code token i.
func (d *dialect) replaceTok(i int, text string) {
	d.replace(d.code[i].Start, d.code[i].End, text)
}

// drop removes code tokens i to j, and what lies between them. A space
// stands in when the tokens around would otherwise run together.
func (d *dialect) drop(i, j int) {
	text := ""
	if i > 0 && j+1 < len(d.code) && d.touch(i-1, i) && d.touch(j, j+1) {
		text = " "
	}
	d.replace(d.code[i].Start, d.code[j].End, text)
}

func (d *dialect) mark(i int, f Flags) {
	d.marks = append(d.marks, mark{d.code[i].Start, f})
}

// word returns code token i in upper case when it is a word, else "".
func (d *dialect) word(i int) string {
	if i < 0 || i >= len(d.code) || d.code[i].Kind != sqltext.Word {
		return ""
	}
	if d.upper == nil {
		d.upper = make([]string, len(d.code))
	}
	if d.upper[i] == "" {
		d.upper[i] = strings.ToUpper(d.code[i].Text(d.src))
	}
	return d.upper[i]
}

func (d *dialect) punct(i int, c byte) bool {
	return i >= 0 && i < len(d.code) && d.code[i].Kind == sqltext.Punct && d.src[d.code[i].Start] == c
}

func (d *dialect) op(i int, text string) bool {
	return i >= 0 && i < len(d.code) && d.code[i].Kind == sqltext.Operator && d.code[i].Text(d.src) == text
}

// touch reports whether code tokens i and j stand with nothing between.
func (d *dialect) touch(i, j int) bool {
	return i >= 0 && j < len(d.code) && d.code[i].End == d.code[j].Start
}

// closing returns the index of the bracket that closes the one at i, or -1.
func (d *dialect) closing(i int) int {
	if i < 0 || i >= len(d.code) || d.match[i] < i {
		return -1
	}
	return d.match[i]
}

// scanTo returns the first index from i where stop holds outside brackets,
// or where the enclosing bracket closes, the statement ends or a Jinja tag
// stands: a rewrite must never swallow a Jinja branch. A scan that starts
// within the span of the last one for the same purpose, at the same depth,
// stops where that one did.
func (d *dialect) scanTo(i int, purpose string, stop func(int) bool) int {
	if i >= len(d.code) {
		return len(d.code)
	}
	if last, ok := d.scans[purpose]; ok && last[0] < i && i <= last[1] && d.parent[i] == d.parent[last[0]] {
		return last[1]
	}
	end, k := d.ends[i], i
	for ; k < end; k++ {
		if stop(k) || d.punct(k, ')') || d.punct(k, ']') {
			break
		}
		if d.punct(k, '(') || d.punct(k, '[') {
			if d.match[k] < 0 || d.match[k] >= end {
				k = end // the bracket holds the statement's end
				break
			}
			k = d.match[k]
		}
	}
	d.scans[purpose] = [2]int{i, k}
	return k
}

// stmtEnd returns the index of the ';' or Jinja tag that ends the
// statement holding i, or the number of code tokens.
func (d *dialect) stmtEnd(i int) int { return d.ends[i] }

// stmtStart reports whether code token i begins a statement.
func (d *dialect) stmtStart(i int) bool {
	if i == 0 || d.starts[i] {
		return true
	}
	p := d.code[i-1]
	return d.punct(i-1, ';') || p.Kind == sqltext.JinjaTag || p.Kind == sqltext.JinjaExpr
}

// dmlStart reports whether code token i begins a statement that may follow
// a WITH clause: it starts a statement, or follows a common table
// expression's closing bracket.
func (d *dialect) dmlStart(i int) bool {
	if d.stmtStart(i) {
		return true
	}
	o := d.match[i-1]
	return d.punct(i-1, ')') && o > 0 && (d.word(o-1) == "AS" || d.word(o-1) == "MATERIALIZED")
}

// replacingQuery reports whether the query of INSERT ... REPLACE WHERE
// starts at k, rather than a subquery of its condition.
func (d *dialect) replacingQuery(k int) bool {
	switch d.word(k) {
	case "SELECT", "WITH", "VALUES", "TABLE":
		return true
	}
	if !d.punct(k, '(') || (d.word(k+1) != "SELECT" && d.word(k+1) != "WITH") {
		return false
	}
	switch d.word(k - 1) {
	case "IN", "EXISTS", "ANY", "SOME", "ALL", "AND", "OR", "NOT", "WHERE":
		return false
	}
	return d.code[k-1].Kind != sqltext.Operator && !d.punct(k-1, '(') && !d.punct(k-1, ',')
}

// notNames are the words that follow DELETE, INSERT or MERGE where a
// relation name would stand but begin something else.
var notNames = map[string]bool{
	"FROM": true, "INTO": true, "WHEN": true, "WHERE": true, "VALUES": true, "ROW": true, "DEFAULT": true,
	"SELECT": true, "WITH": true, "SET": true, "USING": true, "ON": true, "OVERWRITE": true, "TABLE": true,
}

// nameStart reports whether a relation name can start at i.
func (d *dialect) nameStart(i int) bool {
	if i >= len(d.code) {
		return false
	}
	switch d.code[i].Kind {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.JinjaExpr:
		return true
	case sqltext.Word:
		return !notNames[d.word(i)]
	}
	return false
}

// nameEnd returns the index after a possibly qualified relation name that
// starts at i, or i when none does. dbt Jinja may stand for any part, or
// glue onto one.
func (d *dialect) nameEnd(i int) int {
	part := func(k int) bool {
		if k >= len(d.code) {
			return false
		}
		switch d.code[k].Kind {
		case sqltext.Word, sqltext.QuotedIdent, sqltext.Backtick, sqltext.JinjaExpr:
			return true
		}
		return false
	}
	if !d.nameStart(i) {
		return i
	}
	k := i + 1
	for {
		switch {
		case d.punct(k, '.') && part(k+1):
			k += 2
		case part(k) && d.touch(k-1, k) && (d.code[k].Kind == sqltext.JinjaExpr || d.code[k-1].Kind == sqltext.JinjaExpr):
			k++
		default:
			return k
		}
	}
}

// backtickToQuoted turns `project.dataset.table` or `db` into PostgreSQL
// quoted identifiers, one per dotted part.
func backtickToQuoted(text string) string {
	inner := strings.ReplaceAll(text[1:len(text)-1], "``", "`")
	parts := strings.Split(inner, ".")
	for i, p := range parts {
		parts[i] = sqltext.QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// identName returns the name a "quoted identifier" stands for.
func identName(s string) string { return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`) }

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
	d.starts = make([]bool, len(d.code)+1)
	blocks := 0
	for k := 0; k < len(d.code); k++ {
		if !d.scriptStart(k) {
			continue
		}
		opener := -1 // the last token of a dropped opener
		switch w := d.word(k); w {
		case "BEGIN":
			if d.blockBegin(k) {
				opener = k
				blocks++
			}
		case "END":
			switch d.word(k + 1) {
			case "IF", "WHILE", "LOOP", "FOR", "REPEAT", "CASE":
				d.drop(k, k+1)
				k++
			default:
				if blocks > 0 && (k+1 == len(d.code) || d.punct(k+1, ';')) {
					d.drop(k, k)
					blocks--
				}
			}
		case "IF", "ELSEIF", "ELSIF", "WHEN", "CASE":
			opener = d.scriptClause(k, "THEN")
		case "WHILE", "FOR":
			opener = d.scriptClause(k, "DO")
		case "EXCEPTION":
			if d.word(k+1) == "WHEN" {
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

// scriptStart reports whether code token i begins a statement of a
// script: it is the first, follows a ';' or a dropped opener. After Jinja,
// which stmtStart accepts too, the same words more likely continue a
// statement ({% if %} WHEN MATCHED, {{ this }} SET).
func (d *dialect) scriptStart(i int) bool {
	return i == 0 || d.starts[i] || d.punct(i-1, ';') && d.parent[i-1] < 0
}

// blockBegin reports whether the BEGIN at k opens a script block rather
// than a transaction: a statement follows it.
func (d *dialect) blockBegin(k int) bool {
	if k+1 >= len(d.code) || d.code[k+1].Kind != sqltext.Word {
		return false
	}
	switch d.word(k + 1) {
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
		switch w := d.word(j); {
		case d.punct(j, '(') || d.punct(j, '['):
			if d.match[j] < 0 {
				return -1
			}
			j = d.match[j]
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
		if d.word(k) == "CURSOR" {
			return
		}
	}
	value := func(k int) bool { return d.word(k) == "DEFAULT" || d.op(k, "=") }
	if def := d.scanTo(i+1, "declare", value); def < end-1 && value(def) {
		d.replace(d.code[i].Start, d.code[def].End, "SELECT")
		return
	}
	d.replace(d.code[i].Start, d.code[end-1].End, "SELECT NULL")
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
	variable := (d.word(j) == "VAR" || d.word(j) == "VARIABLE") && d.nameStart(j+1)
	if variable {
		j++
	}
	eq := d.nameEnd(j)
	if d.punct(j, '(') {
		eq = d.closing(j) + 1
	}
	if eq <= j || !d.op(eq, "=") || eq+1 >= end {
		return
	}
	simple := !variable
	for k := eq + 1; k < end && simple; k++ {
		switch t := d.code[k]; {
		case t.Kind == sqltext.String || t.Kind == sqltext.Number || t.Kind == sqltext.Word || t.Kind == sqltext.QuotedIdent, d.punct(k, ','):
		case (d.op(k, "-") || d.op(k, "+")) && (k == eq+1 || d.punct(k-1, ',')) && k+1 < end && d.code[k+1].Kind == sqltext.Number:
		default:
			simple = false
		}
	}
	if !simple {
		d.replace(d.code[i].Start, d.code[eq].End, "SELECT")
	}
}

// selectAs drops BigQuery's SELECT AS STRUCT and SELECT AS VALUE, which
// shape each row into one value; the columns read are the same.
func (d *dialect) selectAs(i int) {
	j := i + 1
	if w := d.word(j); w == "DISTINCT" || w == "ALL" {
		j++
	}
	if w := d.word(j + 1); d.word(j) == "AS" && (w == "STRUCT" || w == "VALUE") {
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
		case d.punct(k, '(') || d.punct(k, '['):
			if d.match[k] > k {
				k = d.match[k]
			}
		case d.word(k) == "AS" && (d.punct(k+2, ',') || k+2 == c) && k+1 < c && (d.code[k+1].Kind == sqltext.Word || d.code[k+1].Kind == sqltext.Backtick || d.code[k+1].Kind == sqltext.QuotedIdent):
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
	if i == 0 || d.typed[i] || d.match[i] < i {
		return
	}
	switch p := d.code[i-1]; {
	case p.Kind == sqltext.Word && !exprKeywords[d.word(i-1)]:
		return
	case p.Kind == sqltext.Operator && strings.HasSuffix(p.Text(d.src), ":"):
		return // a Snowflake path
	case p.Kind == sqltext.Punct && !d.punct(i-1, '(') && !d.punct(i-1, ',') && !d.punct(i-1, '['):
		return
	case p.Kind != sqltext.Word && p.Kind != sqltext.Operator && p.Kind != sqltext.Punct:
		return
	}
	d.replaceTok(i, "ARRAY[")
}

// subscriptedCall brackets a function call that a subscript or a field
// name follows, split(s, ',')[OFFSET(0)] or parse(h).campaign: PostgreSQL
// subscripts names and bracketed expressions only.
func (d *dialect) subscriptedCall(i int) {
	if !d.punct(i-1, ')') || d.punct(i, '[') && d.match[i] < i || d.punct(i, '.') && !(d.touch(i, i+1) && d.code[i+1].Kind == sqltext.Word) {
		return
	}
	o := d.match[i-1]
	if o < 1 {
		return
	}
	switch d.code[o-1].Kind {
	case sqltext.Word:
		if exprKeywords[d.word(o-1)] || notNames[d.word(o-1)] {
			return
		}
	case sqltext.QuotedIdent, sqltext.Backtick:
	default:
		return
	}
	name := o - 1
	for name >= 2 && d.punct(name-1, '.') && (d.code[name-2].Kind == sqltext.Word || d.code[name-2].Kind == sqltext.Backtick || d.code[name-2].Kind == sqltext.QuotedIdent) {
		name -= 2
	}
	d.replace(d.code[name].Start, d.code[name].Start, "(")
	d.replace(d.code[i].Start, d.code[i].Start, ")")
}

// arrayIndex rewrites BigQuery's arr[OFFSET(n)], [SAFE_OFFSET(n)],
// [ORDINAL(n)] and [SAFE_ORDINAL(n)] into PostgreSQL's one-based
// subscript arr[(n)+1] or arr[(n)]; the SAFE forms differ only in
// returning NULL out of bounds, as PostgreSQL does anyway.
func (d *dialect) arrayIndex(i int) {
	if !d.punct(i-1, '[') || !d.punct(i+1, '(') {
		return
	}
	c := d.closing(i + 1)
	if c < 0 || !d.punct(c+1, ']') {
		return
	}
	d.drop(i, i)
	if w := d.word(i); w == "OFFSET" || w == "SAFE_OFFSET" {
		d.replaceTok(c, ")+1")
	}
}

// queryParam reports whether the @name at i is a BigQuery query
// parameter, not a Snowflake stage (@stage/path, @db.stage).
func (d *dialect) queryParam(i int) bool {
	if !d.touch(i, i+1) {
		return true
	}
	n := d.code[i+1]
	return !d.punct(i+1, '.') && !(n.Kind == sqltext.Operator && (d.src[n.Start] == '/' || d.src[n.Start] == '%'))
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
	if d.code[i-1].Kind == sqltext.Word && !aliasStops[d.word(i-1)] || d.code[i-1].Kind == sqltext.Backtick || d.code[i-1].Kind == sqltext.QuotedIdent {
		alias, aliasStart = i-1, i-1
		if d.word(i-2) == "AS" {
			aliasStart = i - 2
		}
	}
	if !d.punct(aliasStart-1, ')') || d.word(d.match[aliasStart-1]-1) != "UNNEST" {
		return
	}
	last := i + 1 // OFFSET
	pos := ""
	j := i + 2
	if d.word(j) == "AS" {
		j++
	}
	if j < len(d.code) && (d.code[j].Kind == sqltext.Word && !aliasStops[d.word(j)] || d.code[j].Kind == sqltext.Backtick || d.code[j].Kind == sqltext.QuotedIdent) {
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
		d.replace(d.code[aliasStart-1].Start, d.code[alias].End, ") WITH ORDINALITY AS "+name+"("+cols+")")
		d.drop(i, last)
	case pos != "":
		d.replace(d.code[i].Start, d.code[last].End, "WITH ORDINALITY AS "+pos+"(unnest, "+pos+")")
	default:
		d.replace(d.code[i].Start, d.code[last].End, "WITH ORDINALITY")
	}
}

// identText returns the identifier at i as PostgreSQL writes it.
func (d *dialect) identText(i int) string {
	if d.code[i].Kind == sqltext.Backtick {
		return backtickToQuoted(d.code[i].Text(d.src))
	}
	return d.code[i].Text(d.src)
}

// aliasStops begin a clause or a join where an alias could stand.
var aliasStops = map[string]bool{
	"ON": true, "USING": true, "WHERE": true, "JOIN": true, "LEFT": true, "RIGHT": true, "INNER": true,
	"FULL": true, "CROSS": true, "NATURAL": true, "LATERAL": true, "GROUP": true, "ORDER": true,
	"HAVING": true, "QUALIFY": true, "WINDOW": true, "LIMIT": true, "UNION": true, "EXCEPT": true,
	"INTERSECT": true, "WITH": true, "AS": true, "SELECT": true, "FROM": true, "WHEN": true, "THEN": true,
}

// lateralView rewrites Hive's and Spark's LATERAL VIEW [OUTER]
// explode(arr) t AS x, y into PostgreSQL's lateral join of the same
// function, CROSS JOIN LATERAL explode(arr) AS t(x, y); OUTER keeps the
// rows whose array is empty, as LEFT JOIN LATERAL ... ON true does.
func (d *dialect) lateralView(i int) {
	j := i + 2
	outer := d.word(j) == "OUTER"
	if outer {
		j++
	}
	if d.code[min(j, len(d.code)-1)].Kind != sqltext.Word || !d.punct(j+1, '(') {
		return
	}
	c := d.closing(j + 1)
	if c < 0 {
		return
	}
	k := c + 1
	table := -1
	if d.word(k) != "AS" && k < len(d.code) && (d.code[k].Kind == sqltext.Word || d.code[k].Kind == sqltext.Backtick) {
		table = k
		k++
	}
	if d.word(k) != "AS" {
		return
	}
	var cols []string
	last := k
	for {
		n := last + 1
		if n >= len(d.code) || (d.code[n].Kind != sqltext.Word && d.code[n].Kind != sqltext.Backtick && d.code[n].Kind != sqltext.QuotedIdent) || aliasStops[d.word(n)] {
			break
		}
		cols = append(cols, d.identText(n))
		last = n
		if !d.punct(n+1, ',') {
			break
		}
		last = n + 1
	}
	if len(cols) == 0 || d.punct(last, ',') {
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
	d.replace(d.code[i].Start, d.code[j-1].End, join)
	d.replace(d.code[from].Start, d.code[last].End, "AS "+name+"("+strings.Join(cols, ", ")+")"+on)
}

// tableFunction drops Snowflake's TABLE(...) around a table function in
// FROM, TABLE(FLATTEN(input => v)): PostgreSQL calls it without.
func (d *dialect) tableFunction(i int) {
	if !d.punct(i+1, '(') || i+3 >= len(d.code) || d.code[i+2].Kind != sqltext.Word || !d.punct(i+3, '(') {
		return
	}
	if w := d.word(i - 1); w != "FROM" && w != "JOIN" && w != "LATERAL" && !d.punct(i-1, ',') {
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
	if d.word(kind) != "FUNCTION" {
		n++
	}
	if d.word(n) == "IF" && d.word(n+1) == "NOT" && d.word(n+2) == "EXISTS" {
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
	d.replace(d.code[i].Start, d.code[n].Start, head)
	d.replace(d.code[e].Start, d.code[end-1].End, "() RETURNS void LANGUAGE sql AS ''")
}

// cloneSchema rewrites Snowflake's CREATE [OR REPLACE] SCHEMA or DATABASE
// ... CLONE into the creation of the schema or database: no table is
// written by name.
func (d *dialect) cloneSchema(i, kind int, orReplace bool) {
	n := kind + 1
	if d.word(n) == "IF" && d.word(n+1) == "NOT" && d.word(n+2) == "EXISTS" {
		n += 3
	}
	e := d.nameEnd(n)
	end := d.stmtEnd(i)
	if e == n || d.word(e) != "CLONE" || e+1 >= end {
		return
	}
	if orReplace {
		d.drop(i+1, i+2)
	}
	if e > n+1 {
		// PostgreSQL names a schema with one identifier; Snowflake
		// qualifies it with its database.
		d.replace(d.code[n].Start, d.code[e-1].End, sqltext.QuoteIdent(d.src[d.code[n].Start:d.code[e-1].End]))
	}
	d.drop(e, end-1)
}

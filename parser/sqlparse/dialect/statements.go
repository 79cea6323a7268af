package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Statements: CREATE, INSERT, MERGE, COPY INTO, ALTER, TRUNCATE and the
// maintenance commands, rewritten into their PostgreSQL forms.

// create handles CREATE [OR REPLACE] ... TABLE/VIEW. PostgreSQL has no OR
// REPLACE for tables or materialized views and none of the warehouses'
// table modifiers and storage clauses.
func (d *dialect) create(i int) {
	if !d.stmtStart(i) {
		return
	}
	j := i + 1
	orReplace := d.Word(j) == "OR" && d.Word(j+1) == "REPLACE"
	if orReplace {
		j += 2
	}
	var modifiers []int
	for more := true; more; {
		switch d.Word(j) {
		case "TRANSIENT", "VOLATILE", "SECURE", "SNAPSHOT":
			modifiers = append(modifiers, j)
			j++
		case "TEMP", "TEMPORARY", "LOCAL", "GLOBAL", "MATERIALIZED", "RECURSIVE":
			j++
		default:
			more = false
		}
	}
	kind := d.Word(j)
	switch {
	case kind == "FUNCTION" || (kind == "TABLE" || kind == "AGGREGATE") && d.Word(j+1) == "FUNCTION":
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
		if kind == "TABLE" || d.Word(j-1) == "MATERIALIZED" {
			d.drop(i+1, i+2)
		}
	}
	d.relationTail(j+1, d.stmtEnd(i))
}

// relationTail handles what follows CREATE ... TABLE/VIEW: the name, a copy
// of another table, a column list, then clauses up to AS.
func (d *dialect) relationTail(j, end int) {
	if d.Word(j) == "IF" && d.Word(j+1) == "NOT" && d.Word(j+2) == "EXISTS" {
		j += 3
	}
	n := d.nameEnd(j)
	if n == j {
		return
	}
	j = n
	k := j
	if d.Word(k) == "SHALLOW" || d.Word(k) == "DEEP" {
		k++
	}
	switch {
	case d.Word(k) == "CLONE" || (d.Word(k) == "COPY" && d.Word(k+1) != "GRANTS"):
		// A zero-copy clone or BigQuery's table copy fills the new table
		// with the source's rows, which is what AS TABLE says. Time travel
		// and options after the source do not change which relation is
		// read.
		src := k + 1
		srcEnd := d.nameEnd(src)
		if srcEnd == src {
			return
		}
		d.replaceToks(j, k, "AS TABLE")
		if srcEnd < end {
			d.drop(srcEnd, end-1)
		}
		return
	case d.Word(j) == "LIKE":
		srcEnd := d.nameEnd(j + 1)
		if srcEnd == j+1 || d.Kind(srcEnd-1) == sqltext.JinjaExpr {
			return
		}
		last := d.Code[srcEnd-1]
		// The bracket closes in the replacement of the name's last part:
		// an insertion at the end of a statement would fall outside it.
		text := last.Text(d.Src)
		if last.Kind == sqltext.Backtick {
			text = backtickToQuoted(text)
		}
		d.replaceTok(j, "(LIKE")
		d.replace(int(last.Start), int(last.End), text+")")
		j = srcEnd
	case d.Punct(j, '('):
		c := d.closing(j)
		if c < 0 {
			return
		}
		d.columns(j, c)
		j = c + 1
	}
	for j < end && d.Word(j) != "AS" {
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
	w, w1 := d.Word(j), d.Word(j+1)
	switch {
	case w == "PARTITION" && w1 == "BY":
		// PostgreSQL's own partitioning names a strategy and a column
		// list; BigQuery's and Snowflake's is an expression.
		s := d.Word(j + 2)
		return 2, !((s == "RANGE" || s == "LIST" || s == "HASH") && d.Punct(j+3, '('))
	case w1 == "BY" && (w == "PARTITIONED" || w == "CLUSTER" || w == "CLUSTERED" || w == "SORTED"),
		w == "STORED" && w1 == "AS", w == "ROW" && w1 == "FORMAT", w == "COPY" && w1 == "GRANTS",
		w == "DEFAULT" && w1 == "COLLATE":
		return 2, true
	case w == "OPTIONS" || w == "TBLPROPERTIES" || w == "LOCATION" || w == "COMMENT":
		return 1, true
	case w == "WITH" && (w1 == "TAG" || w1 == "ROW" || w1 == "AGGREGATION"):
		return 1, true
	case w == "WITH" && d.Punct(j+1, '('), w == "INHERITS", w == "TABLESPACE", w == "USING", w == "WITHOUT":
		return 1, false
	case w == "ON" && w1 == "COMMIT":
		return 2, false
	case w != "" && (d.Op(j+1) == "="):
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
		case d.Punct(k, '(') || d.Punct(k, '['):
			depth++
		case d.Punct(k, ')') || d.Punct(k, ']'):
			depth--
			if depth < 0 {
				return k
			}
		case d.Kind(k) == sqltext.JinjaTag:
			return k
		case depth == 0:
			if n, _ := d.clause(k); n > 0 || d.Word(k) == "AS" {
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
		switch d.Word(k) {
		case "OPTIONS":
			if c := d.closing(k + 1); d.Punct(k+1, '(') && c > 0 && c < close {
				d.drop(k, c)
				k = c
			}
		case "COMMENT":
			if k+1 < close && d.Kind(k+1) == sqltext.String {
				d.drop(k, k+1)
				k++
			}
		case "NOT":
			// BigQuery's unenforced keys are documentation.
			if d.Word(k+1) == "ENFORCED" {
				d.drop(k, k+1)
			}
		case "GENERATED":
			// Databricks computes generated columns on write, as
			// PostgreSQL's STORED ones.
			if d.Word(k+1) == "ALWAYS" && d.Word(k+2) == "AS" && d.Punct(k+3, '(') {
				if c := d.closing(k + 3); c > 0 && c < close && d.Word(c+1) != "STORED" {
					d.replace(int(d.Code[c].End), int(d.Code[c].End), " STORED")
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
	switch d.Word(j) {
	case "OVERWRITE":
		overwrite = true
		d.mark(i, InsertOverwrite)
		if d.Word(j+1) == "INTO" { // Snowflake
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
	if d.Word(j) == "TABLE" {
		d.drop(j, j)
		j++
	}
	n := d.nameEnd(j)
	if n == j {
		return
	}
	j = n
	if d.Word(j) == "PARTITION" && d.Punct(j+1, '(') {
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
	if d.Word(j) == "IF" && d.Word(j+1) == "NOT" && d.Word(j+2) == "EXISTS" {
		d.drop(j, j+2)
		j += 3
	}
	switch {
	case d.Word(j) == "REPLACE" && d.Word(j+1) == "WHERE":
		end := d.scanTo(j+2, "replace", d.replacingQuery)
		if end < len(d.Code) && d.replacingQuery(end) {
			d.drop(j, end-1)
			mk := Mark{Offset: int(d.Code[i].Start), Flags: ReplaceWhere}
			if end > j+2 {
				mk.Predicate = [2]int{int(d.Code[j+2].Start), int(d.Code[end-1].End)}
			}
			d.marks = append(d.marks, mk)
		}
	case d.Word(j) == "BY" && d.Word(j+1) == "NAME":
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
	if d.Word(j) == "WITH" && d.Word(j+1) == "SCHEMA" && d.Word(j+2) == "EVOLUTION" {
		d.drop(j, j+2)
		j += 3
	}
	if d.Word(j) != "INTO" {
		if !d.nameStart(j) {
			return
		}
		d.replaceTok(i, "MERGE INTO")
	}
	d.merge = i
}

// inMerge reports whether token k belongs to the MERGE being read.
func (d *dialect) inMerge(k int) bool {
	return d.merge >= 0 && k < d.ends.At(d.merge)
}

// mergeWhen rewrites the WHEN clauses PostgreSQL 16 lacks.
func (d *dialect) mergeWhen(k int) {
	if !d.inMerge(k) || d.Word(k+1) != "NOT" || d.Word(k+2) != "MATCHED" || d.Word(k+3) != "BY" {
		return
	}
	switch d.Word(k + 4) {
	case "TARGET":
		d.drop(k+3, k+4)
	case "SOURCE":
		// Target rows the source lacks become matched rows: the action
		// and its condition keep their place and positions.
		d.replaceToks(k+1, k+4, "MATCHED")
		d.mark(d.merge, MergeBySource)
	}
}

// mergeAction rewrites the actions that write every column.
func (d *dialect) mergeAction(k int) {
	if !d.inMerge(k) {
		return
	}
	switch {
	case d.Word(k+1) == "UPDATE" && d.Word(k+2) == "SET" && (d.Op(k+3) == "*"):
		// A column named "*" reads as "every column" to a person, and the
		// flag says so to rules.
		d.replaceTok(k+3, `"*" = DEFAULT`)
		d.mark(d.merge, MergeAllColumns)
	case d.Word(k+1) == "INSERT" && ((d.Op(k+2) == "*") || d.Word(k+2) == "ROW"):
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
	if !d.stmtStart(i) || d.Word(i+1) != "INTO" || i+2 >= len(d.Code) {
		return
	}
	end := d.stmtEnd(i)
	tail := int(d.Code[end-1].End)
	target := d.Code[i+2]
	if text := target.Text(d.Src); target.Kind == sqltext.String || (target.Kind == sqltext.Param || target.Kind == sqltext.Operator) && text[0] == '@' {
		from := d.scanTo(i+3, "from", func(k int) bool { return d.Word(k) == "FROM" })
		if from >= end || d.Word(from) != "FROM" {
			return
		}
		srcEnd := d.nameEnd(from + 1)
		if d.Punct(from+1, '(') {
			srcEnd = d.closing(from+1) + 1
		}
		if srcEnd <= from+1 {
			return
		}
		d.replaceToks(i, from, "COPY")
		d.replace(int(d.Code[srcEnd-1].End), tail, " TO STDOUT")
		return
	}
	n := d.nameEnd(i + 2)
	if n == i+2 {
		return
	}
	if d.Punct(n, '(') {
		n = d.closing(n) + 1
	}
	if n <= i+2 || d.Word(n) != "FROM" {
		return
	}
	d.replaceToks(i, i+1, "COPY")
	d.replace(int(d.Code[n].Start), tail, "FROM STDIN")
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
	switch w := d.Word(j); w {
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
	name := d.Src[d.Code[j].Start:d.Code[end-1].End]
	d.replaceToks(i, end-1, "SET "+setting+" TO '"+strings.ReplaceAll(name, "'", "''")+"'")
}

// alter handles Snowflake's ALTER SESSION and ALTER TABLE ... SWAP WITH.
func (d *dialect) alter(i int) {
	if !d.stmtStart(i) {
		return
	}
	switch d.Word(i + 1) {
	case "SESSION":
		switch d.Word(i + 2) {
		case "SET":
			// One replacement from ALTER on keeps the statement's start there.
			d.replaceToks(i, i+2, "SET")
			// PostgreSQL's SET takes one parameter: the first is kept.
			end := d.stmtEnd(i)
			if more := d.scanTo(i+3, "session", func(k int) bool { return d.Punct(k, ',') && (d.Op(k+2) == "=") }); more < end && d.Punct(more, ',') {
				d.drop(more, end-1)
			}
		case "UNSET":
			d.replaceToks(i, i+2, "RESET")
		}
	case "TABLE":
		j := i + 2
		if d.Word(j) == "IF" && d.Word(j+1) == "EXISTS" {
			j += 2
		}
		n := d.nameEnd(j)
		if n > j && d.Word(n) == "SWAP" && d.Word(n+1) == "WITH" && d.nameEnd(n+2) > n+2 {
			// INHERIT is the ALTER TABLE form that names a second
			// relation, so both keep their positions; the flag says the
			// two tables trade contents.
			d.replaceToks(n, n+1, "INHERIT")
			d.mark(i, SwapWith)
		}
		if n > j && d.Word(n) == "ADD" && d.Word(n+1) == "COLUMNS" && d.Punct(n+2, '(') {
			// Spark adds a bracketed list of columns; PostgreSQL one
			// ADD COLUMN per column.
			c := d.closing(n + 2)
			if c < 0 {
				return
			}
			d.replaceToks(n+1, n+2, "COLUMN ")
			for k := n + 3; k < c; k++ {
				switch {
				case d.Punct(k, '(') || d.Punct(k, '['):
					k = max(d.match.At(k), k)
				case d.Punct(k, ','):
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
	if d.Word(j) == "TABLE" {
		j++
	}
	if d.Word(j) == "IF" && d.Word(j+1) == "EXISTS" {
		d.drop(j, j+1)
		j += 2
	}
	n := d.nameEnd(j)
	if n > j && d.Word(n) == "PARTITION" && d.Punct(n+1, '(') {
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
	if d.Word(i) == "ANALYZE" {
		if d.Word(j) != "TABLE" {
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
	switch d.Word(i) {
	case "OPTIMIZE":
		d.replaceTok(i, "VACUUM")
	case "VACUUM":
		// PostgreSQL's own options come before the table.
		if w := d.Word(n); w != "RETAIN" && w != "DRY" && w != "LITE" && w != "FULL" {
			return
		}
	}
	d.drop(n, end-1)
}

// qualify drops a QUALIFY filter, which PostgreSQL lacks, up to the end of
// its query block.
func (d *dialect) qualify(i int) {
	if d.Punct(i-1, ',') || d.Punct(i-1, '.') || d.Word(i-1) == "SELECT" || d.Word(i-1) == "AS" {
		return // a column named qualify
	}
	end := d.scanTo(i+1, "qualify", func(k int) bool {
		switch d.Word(k) {
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
	if k >= len(d.Code) || d.Punct(k, ';') || d.Punct(k, ')') || d.Kind(k) == sqltext.JinjaTag {
		return true
	}
	switch d.Word(k) {
	case "HAVING", "QUALIFY", "ORDER", "LIMIT", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "MINUS":
		return true
	}
	return false
}

// hierarchy drops Snowflake's START WITH and CONNECT BY, which walk a
// hierarchy through the rows of the relations in FROM: PostgreSQL has no
// such clause. Neither filters what is read, and the relations read stay
// those of the FROM clause. A clause that holds a subquery stays as
// written, for the token reading: dropping it would hide what it reads.
func (d *dialect) hierarchy(i int) {
	j := i + 2
	if d.Word(i) == "CONNECT" && d.Word(j) == "NOCYCLE" {
		j++
	}
	if j >= len(d.Code) || !d.connectsBy(i) {
		return
	}
	end := d.scanTo(j, "hierarchy", func(k int) bool {
		switch w := d.Word(k); w {
		case "CONNECT", "START":
			return d.Word(k+1) == "BY" || d.Word(k+1) == "WITH"
		case "GROUP", "HAVING", "QUALIFY", "ORDER", "WINDOW", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "OFFSET", "FETCH":
			return true
		}
		return false
	})
	if end == j {
		return
	}
	for k := j; k < end; k++ {
		if d.Punct(k, '(') && (d.Word(k+1) == "SELECT" || d.Word(k+1) == "WITH") {
			return
		}
	}
	d.drop(i, end-1)
}

// connectsBy reports whether the query block of the clause at i walks a
// hierarchy: a CONNECT BY stands in it, before or after i.
func (d *dialect) connectsBy(i int) bool {
	if d.Word(i) == "CONNECT" {
		return d.Word(i+1) == "BY"
	}
	if d.Word(i) != "START" || d.Word(i+1) != "WITH" {
		return false
	}
	o := d.parent.At(i)
	edge := func(k int) bool { return k == o || d.Punct(k, ';') || d.Punct(k, ')') && d.match.At(k) == o }
	for _, step := range []int{-1, 1} {
		for k := i + step; k >= 0 && k < d.ends.At(i) && !edge(k); k += step {
			if d.parent.At(k) == o && d.Word(k) == "CONNECT" && d.Word(k+1) == "BY" {
				return true
			}
		}
	}
	return false
}

// hierarchyOperator drops PRIOR and CONNECT_BY_ROOT before a column of a
// hierarchical query's select list: the column read is the same, taken
// from the parent or the root row.
func (d *dialect) hierarchyOperator(i int) {
	starts := d.Punct(i-1, ',') || d.Punct(i-1, '(') || d.Kind(i-1) == sqltext.Operator || operandStarts[d.Word(i-1)]
	next := d.Kind(i+1) == sqltext.QuotedIdent || d.Kind(i+1) == sqltext.Word && !operandEnds[d.Word(i+1)] && !aliasStops[d.Word(i+1)]
	if starts && next {
		d.drop(i, i)
	}
}

// byName drops what makes a set operation at i match columns by name
// rather than by position: BY NAME (Snowflake, BigQuery, DuckDB), with
// BigQuery's ON (columns), CORRESPONDING [BY (columns)], and BigQuery's
// FULL, LEFT or INNER [OUTER] before the operator. The queries combined,
// and what they read, are the same.
func (d *dialect) byName(i int) {
	j := i + 1
	if w := d.Word(j); w == "ALL" || w == "DISTINCT" {
		j++
	}
	k := j
	switch {
	case d.Word(k) == "BY" && d.Word(k+1) == "NAME":
		k += 2
		if d.Word(k) == "ON" && d.Punct(k+1, '(') {
			k = d.closing(k+1) + 1
		}
	case d.Word(k) == "STRICT" && d.Word(k+1) == "CORRESPONDING", d.Word(k) == "CORRESPONDING":
		if d.Word(k) == "STRICT" {
			k++
		}
		k++
		if d.Word(k) == "BY" && d.Punct(k+1, '(') {
			k = d.closing(k+1) + 1
		}
	default:
		return
	}
	if k <= j || k >= len(d.Code) {
		return
	}
	d.drop(j, k-1)
	p := i - 1
	if d.Word(p) == "OUTER" {
		p--
	}
	if w := d.Word(p); (w == "FULL" || w == "LEFT" || w == "INNER") && (d.Punct(p-1, ')') || d.Kind(p-1) == sqltext.Word || d.Kind(p-1) == sqltext.Number || d.Kind(p-1) == sqltext.String || d.Kind(p-1) == sqltext.QuotedIdent || d.Kind(p-1) == sqltext.Backtick) {
		d.drop(p, i-1)
	}
}

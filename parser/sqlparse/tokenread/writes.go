package tokenread

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
)

// write records a write of the relation named at code[i], its statement's
// keyword at code[keyword], and returns the index after the name with the
// index of the write; w is -1, and nothing is recorded, when no name is
// there.
func (sc *tokenScan) write(kind fact.WriteKind, keyword, i int) (next, w int) {
	parts, e, _ := sc.name(i)
	if e == i {
		return i, -1
	}
	sc.names[i] = true
	sc.tf.Writes = append(sc.tf.Writes, fact.Write{Kind: kind, Target: sqlname.Relation{Parts: parts, Offset: sc.orig(i)}, Offset: sc.orig(keyword)})
	return e, len(sc.tf.Writes) - 1
}

// insert reads INSERT [INTO | OVERWRITE [INTO]] [TABLE] t [PARTITION (...)]
// [REPLACE WHERE ...] [(columns)] query, and Snowflake's multi-table
// INSERT ALL / FIRST.
func (sc *tokenScan) insert(i, to int) {
	flags := sc.src.Flags
	j := i + 1
	overwrite := flags&dialect.InsertOverwrite != 0
	switch sc.Word(j) {
	case "OVERWRITE":
		overwrite = true
		j++
		if sc.Word(j) == "INTO" {
			j++
		}
	case "INTO":
		j++
	case "ALL", "FIRST":
		first := -1
		for k := j + 1; k < to; k++ {
			switch {
			case sc.open(k):
				k = sc.close(k, to)
			case sc.Word(k) == "INTO":
				sc.write(fact.WriteInsert, i, k+1)
			case first < 0 && (sc.Word(k) == "SELECT" || sc.Word(k) == "WITH"):
				first = k
			}
		}
		if first >= 0 {
			sc.query(first, to, scanCtx{})
		}
		return
	}
	if sc.Word(j) == "TABLE" {
		j++
	}
	j, w := sc.write(fact.WriteInsert, i, j)
	if w < 0 {
		return
	}
	kind := fact.WriteInsert
	partitioned := flags&dialect.OverwritePartition != 0
	if sc.Word(j) == "PARTITION" && sc.Punct(j+1, '(') {
		partitioned = partitioned || overwrite
		j = sc.close(j+1, to) + 1
	}
	if sc.Word(j) == "IF" && sc.Word(j+1) == "NOT" && sc.Word(j+2) == "EXISTS" {
		j += 3
	}
	replaceWhere := flags&dialect.ReplaceWhere != 0
	if sc.Word(j) == "REPLACE" && sc.Word(j+1) == "WHERE" {
		replaceWhere = true
		end := j + 2
		for end < to && !dialect.ReplacingQuery(&sc.Cursor, end) {
			if sc.open(end) {
				end = sc.close(end, to)
			}
			end++
		}
		// An unclosed bracket runs the predicate to the statement's end, not
		// past it (found by FuzzStatementFacts).
		end = min(end, to)
		sc.cond(j+2, end, false, false)
		j = end
	}
	if sc.Word(j) == "BY" && sc.Word(j+1) == "NAME" {
		j += 2
	}
	if sc.Punct(j, '(') && !sc.startsQuery(j+1) {
		j = sc.close(j, to) + 1
	}
	end := to
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Word(k) == "ON" && sc.Word(k+1) == "CONFLICT" {
			end, kind = k, fact.WriteInsertOnConflict
			break
		}
	}
	switch {
	case overwrite:
		kind = fact.WriteInsertOverwrite
		sc.tf.Writes[w].Partitioned = partitioned
	case replaceWhere:
		kind = fact.WriteReplaceWhere
	}
	sc.tf.Writes[w].Kind = kind
	sc.body(j, end, nil, scanCtx{})
	if end < to {
		sc.exprs(end, to, scanCtx{sub: true})
	}
}

// merge reads MERGE [INTO] t [[AS] a] USING source [[AS] s] ON cond
// WHEN ... clauses.
func (sc *tokenScan) merge(i, to int) {
	j := i + 1
	if sc.Word(j) == "WITH" && sc.Word(j+1) == "SCHEMA" && sc.Word(j+2) == "EVOLUTION" {
		j += 3
	}
	if sc.Word(j) == "INTO" {
		j++
	}
	j, w := sc.write(fact.WriteMerge, i, j)
	if w < 0 {
		return
	}
	if j = sc.alias(j, to); sc.Word(j) != "USING" {
		return
	}
	j++
	var src *fact.TokenJoin
	switch {
	case sc.open(j):
		end := sc.close(j, to)
		sc.query(j+1, end, scanCtx{depth: 1})
		j = sc.alias(end+1, to)
	default:
		parts, e, folded := sc.name(j)
		if e == j {
			return
		}
		sc.names[j] = true
		rel := sqlname.Relation{Parts: parts, Offset: sc.orig(j)}
		src = &fact.TokenJoin{Join: fact.Join{Relation: rel, Alias: folded, Inner: true, Offset: rel.Offset}}
		src.CTE = len(parts) == 1 && sc.ctes[strings.ToLower(folded)]
		src.From = &fact.TokenFrom{FromClause: fact.FromClause{Items: 1, First: rel.Offset, Target: true}}
		j = e
		if alias, k, ok := sc.aliasName(j, to); ok {
			src.Alias, j = alias, k
		}
		sc.joins = append(sc.joins, src)
	}
	whens := sc.mergeWhens(j, to)
	if sc.Word(j) == "ON" && sc.Word(j+1) == "FALSE" && whens[0] == j+2 && sc.src.Flags&dialect.MergeBySource != 0 {
		for n, k := range whens[:len(whens)-1] {
			if sc.indexWord(k, whens[n+1], "DELETE") >= 0 && sc.Word(k+1) == "MATCHED" {
				sc.tf.Writes[w].Replaces = true
			}
		}
	}
	if sc.Word(j) == "ON" {
		on := sc.cond(j+1, whens[0], false, false)
		sc.exprs(j+1, whens[0], scanCtx{})
		if src != nil {
			src.From.Ons = on.Conjuncts
			for _, cj := range on.Conjuncts {
				src.Partial = src.Partial || cj.Node == nil
			}
		}
	}
	for n, k := range whens[:len(whens)-1] {
		next := whens[n+1]
		then := k
		for then < next && sc.Word(then) != "THEN" {
			if sc.open(then) {
				then = sc.close(then, next)
			}
			then++
		}
		if and := sc.indexWord(k, then, "AND"); and >= 0 {
			sc.cond(and+1, then, false, false)
			sc.exprs(and+1, then, scanCtx{})
		}
		sc.exprs(then, next, scanCtx{sub: true})
	}
}

// mergeWhens returns the WHEN [NOT] MATCHED of a MERGE outside brackets,
// after code[j], followed by to; a CASE WHEN in an action is not one.
func (sc *tokenScan) mergeWhens(j, to int) []int {
	var out []int
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Word(k) == "WHEN" && (sc.Word(k+1) == "MATCHED" || sc.Word(k+1) == "NOT" && sc.Word(k+2) == "MATCHED") {
			out = append(out, k)
		}
	}
	return append(out, to)
}

// indexWord returns the first w outside brackets in code[i:to], or -1.
func (sc *tokenScan) indexWord(i, to int, w string) int {
	for k := i; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Word(k) == w {
			return k
		}
	}
	return -1
}

// update reads UPDATE [ONLY] t [[AS] a] SET ... [FROM ...] [WHERE ...].
func (sc *tokenScan) update(i, to int) {
	j := i + 1
	if sc.Word(j) == "ONLY" {
		j++
	}
	j, w := sc.write(fact.WriteUpdate, i, j)
	if w < 0 {
		return
	}
	sc.body(sc.alias(j, to), to, &scanBlock{target: true, top: true}, scanCtx{})
}

// delete reads DELETE [FROM] t [[AS] a] [USING ...] [WHERE ...].
func (sc *tokenScan) delete(i, to int) {
	j := i + 1
	if sc.Word(j) == "FROM" {
		j++
	}
	if sc.Word(j) == "ONLY" {
		j++
	}
	j, w := sc.write(fact.WriteDelete, i, j)
	if w < 0 {
		return
	}
	sc.body(sc.alias(j, to), to, &scanBlock{target: true, top: true, using: true}, scanCtx{})
}

// create reads CREATE [OR REPLACE] [modifiers] TABLE | MATERIALIZED VIEW |
// VIEW name ... [AS query]. A view holds no rows and writes nothing, but
// the relations its query joins are read.
func (sc *tokenScan) create(i, to int) {
	j := i + 1
	orReplace := sc.Word(j) == "OR" && sc.Word(j+1) == "REPLACE"
	if orReplace {
		j += 2
	}
	temp, materialized := false, false
	for more := true; more; {
		switch sc.Word(j) {
		case "TEMP", "TEMPORARY":
			temp = true
			j++
		case "MATERIALIZED":
			materialized = true
			j++
		case "TRANSIENT", "VOLATILE", "SECURE", "LOCAL", "GLOBAL", "UNLOGGED", "RECURSIVE", "EXTERNAL":
			j++
		default:
			more = false
		}
	}
	kind := sc.Word(j)
	if kind != "TABLE" && kind != "VIEW" {
		return
	}
	j++
	if sc.Word(j) == "IF" && sc.Word(j+1) == "NOT" && sc.Word(j+2) == "EXISTS" {
		j += 3
	}
	w := -1
	if kind == "TABLE" || materialized {
		j, w = sc.write(fact.WriteCreateTable, i, j)
	} else if _, e, _ := sc.name(j); e > j {
		sc.names[j] = true
		j = e
	}
	// A clone or copy fills the table with another's rows, as normalisation
	// says when it writes AS TABLE source.
	filled := false
	switch sc.Word(j) {
	case "CLONE", "SHALLOW", "DEEP", "COPY":
		filled = sc.Word(j+1) != "GRANTS"
		src := j + 1
		if sc.Word(j) == "SHALLOW" || sc.Word(j) == "DEEP" {
			src++
		}
		if filled {
			sc.cloned(src)
		}
	}
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Word(k) == "AS" && sc.Word(k+1) == "TABLE" {
			filled = true
			sc.cloned(k + 2)
			break
		}
		if sc.Word(k) == "AS" && sc.startsQuery(k+1) {
			filled = true
			sc.body(k+1, to, nil, scanCtx{})
			break
		}
	}
	if w < 0 {
		return
	}
	sc.tf.Writes[w].Temporary = temp
	switch {
	case orReplace:
		sc.tf.Writes[w].Kind = fact.WriteCreateOrReplace
	case filled:
		sc.tf.Writes[w].Kind = fact.WriteCreateTableAs
	}
}

// truncate reads TRUNCATE [TABLE] [IF EXISTS] t [, ...] [PARTITION (...)].
func (sc *tokenScan) truncate(i, to int) {
	j := i + 1
	if sc.Word(j) == "TABLE" {
		j++
	}
	if sc.Word(j) == "IF" && sc.Word(j+1) == "EXISTS" {
		j += 2
	}
	partitioned := sc.src.Flags&dialect.TruncatePartition != 0
	first := len(sc.tf.Writes)
	for j < to {
		if sc.Word(j) == "ONLY" {
			j++
		}
		e, w := sc.write(fact.WriteTruncate, i, j)
		if w < 0 {
			break
		}
		j = e
		if sc.Op(j) == "*" {
			j++
		}
		if !sc.Punct(j, ',') {
			break
		}
		j++
	}
	if sc.Word(j) == "PARTITION" && sc.Punct(j+1, '(') {
		partitioned = true
	}
	for k := first; k < len(sc.tf.Writes); k++ {
		sc.tf.Writes[k].Partitioned = partitioned
	}
}

// drop reads DROP TABLE | VIEW | MATERIALIZED VIEW | FOREIGN TABLE [IF
// EXISTS] name [, ...].
func (sc *tokenScan) drop(i, to int) {
	j := i + 1
	switch sc.Word(j) {
	case "TABLE", "VIEW":
		j++
	case "MATERIALIZED", "FOREIGN":
		if w := sc.Word(j + 1); w != "VIEW" && w != "TABLE" {
			return
		}
		j += 2
	default:
		return
	}
	if sc.Word(j) == "IF" && sc.Word(j+1) == "EXISTS" {
		j += 2
	}
	for j < to {
		e, w := sc.write(fact.WriteDrop, i, j)
		if w < 0 || !sc.Punct(e, ',') {
			return
		}
		j = e + 1
	}
}

// cloned reads the relation a CLONE copies, at code[i]: normalisation
// rewrites the clone as a query of it alone, and the tree joins it so.
func (sc *tokenScan) cloned(i int) {
	parts, e, folded := sc.name(i)
	if e == i {
		return
	}
	sc.names[i] = true
	rel := sqlname.Relation{Parts: parts, Offset: sc.orig(i)}
	j := &fact.TokenJoin{Join: fact.Join{Relation: rel, Alias: folded, Inner: true, Offset: rel.Offset}}
	j.From = &fact.TokenFrom{FromClause: fact.FromClause{Items: 1, First: rel.Offset}}
	sc.joins = append(sc.joins, j)
}

// copy reads COPY [INTO] t [(columns)] FROM ..., a load into a table; an
// unload (COPY INTO a stage or location, COPY ... TO) writes no relation.
func (sc *tokenScan) copy(i, to int) {
	j := i + 1
	if sc.Word(j) == "INTO" {
		j++
	}
	// An unload reads its query: COPY (SELECT ...) TO, as normalisation
	// writes Snowflake's COPY INTO @stage FROM (SELECT ...).
	for k := i; k+1 < to; k++ {
		if (k == i || sc.Word(k) == "FROM") && sc.open(k+1) && sc.startsQuery(k+2) {
			sc.query(k+2, sc.close(k+1, to), scanCtx{})
			break
		}
	}
	parts, e, _ := sc.name(j)
	if e == j || len(parts) == 0 {
		return
	}
	k := e
	if sc.Punct(k, '(') {
		k = sc.close(k, to) + 1
	}
	if sc.Word(k) == "FROM" {
		sc.write(fact.WriteCopy, i, j)
	}
}

// alter reads ALTER TABLE t: Snowflake's SWAP WITH b, which normalisation
// leaves as INHERIT b, writes both tables; Hive's DROP [IF EXISTS]
// PARTITION (...) empties those partitions as TRUNCATE ... PARTITION does;
// anything else only names t.
func (sc *tokenScan) alter(i, to int) {
	j := i + 1
	switch sc.Word(j) {
	case "TABLE", "VIEW":
		j++
	case "MATERIALIZED", "EXTERNAL", "DYNAMIC", "ICEBERG":
		j += 2
	default:
		return
	}
	if sc.Word(j) == "IF" && sc.Word(j+1) == "EXISTS" {
		j += 2
	}
	parts, e, _ := sc.name(j)
	if e == j {
		return
	}
	other := -1
	switch {
	case sc.Word(e) == "SWAP" && sc.Word(e+1) == "WITH":
		other = e + 2
	case sc.Word(e) == "INHERIT" && sc.src.Flags&dialect.SwapWith != 0:
		other = e + 1
	case sc.Word(e) == "DROP":
		k := e + 1
		if sc.Word(k) == "IF" && sc.Word(k+1) == "EXISTS" {
			k += 2
		}
		if sc.Word(k) == "PARTITION" && sc.Punct(k+1, '(') {
			if _, w := sc.write(fact.WriteTruncate, i, j); w >= 0 {
				sc.tf.Writes[w].Partitioned = true
			}
			return
		}
	}
	if other >= 0 {
		if _, e2, _ := sc.name(other); e2 > other && e2 <= to {
			sc.write(fact.WriteSwap, i, j)
			sc.write(fact.WriteSwap, i, other)
			return
		}
	}
	sc.names[j] = true
	sc.tf.Named = append(sc.tf.Named, sqlname.Relation{Parts: parts, Offset: sc.orig(j)})
}

// named reads the relation a maintenance or access command acts on: the
// first name after TABLE (RESTORE TABLE t, ANALYZE TABLE t, COMMENT ON
// TABLE t, GRANT ... ON TABLE t), or right after the keyword (OPTIMIZE t,
// VACUUM t).
func (sc *tokenScan) named(i, to int) {
	j := i + 1
	if k := sc.indexWord(i+1, to, "TABLE"); k >= 0 {
		j = k + 1
	}
	if sc.Word(j) == "IF" && sc.Word(j+1) == "EXISTS" {
		j += 2
	}
	parts, e, _ := sc.name(j)
	if e == j || e > to {
		return
	}
	sc.names[j] = true
	sc.tf.Named = append(sc.tf.Named, sqlname.Relation{Parts: parts, Offset: sc.orig(j)})
}

// semanticTables reads the TABLES clause a Snowflake semantic view is
// written with, as a dbt model materialized semantic_view holds it:
// TABLES (alias AS relation [PRIMARY KEY (...)] [COMMENT = '...'], ...).
// Each relation is named; no query reads them row by row.
func (sc *tokenScan) semanticTables(i, to int) {
	if !sc.open(i + 1) {
		return
	}
	end := sc.close(i+1, to)
	for _, entry := range sc.selectItems(i+2, end) {
		j := entry[0]
		if sc.Word(j+1) == "AS" {
			j += 2
		}
		parts, e, _ := sc.name(j)
		if e == j || e > entry[1] {
			continue
		}
		sc.names[j] = true
		sc.tf.Named = append(sc.tf.Named, sqlname.Relation{Parts: parts, Offset: sc.orig(j)})
	}
}

// selectInto reads SELECT ... INTO [TEMP] t FROM ..., which creates t.
func (sc *tokenScan) selectInto(i, to int) {
	for k := i + 1; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		switch sc.Word(k) {
		case "FROM", "WHERE", "UNION", "INTERSECT", "EXCEPT":
			return
		case "INTO":
			j := k + 1
			temp := false
			for more := true; more; {
				switch sc.Word(j) {
				case "TEMP", "TEMPORARY":
					temp = true
					j++
				case "UNLOGGED", "TABLE":
					j++
				default:
					more = false
				}
			}
			if _, w := sc.write(fact.WriteCreateTableAs, i, j); w >= 0 {
				sc.tf.Writes[w].Temporary = temp
			}
			return
		}
	}
}

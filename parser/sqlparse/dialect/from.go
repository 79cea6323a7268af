package dialect

import "github.com/bflint/bflint/parser/sqlparse/sqltext"

// FROM clauses: joins written without a condition, qualified join
// columns, PIVOT and UNPIVOT.

// joinWithoutOn gives ON TRUE to a join that has no condition. BigQuery
// writes LEFT JOIN UNNEST(a) AS x and Snowflake JOIN LATERAL FLATTEN(...):
// the item depends on the rows before it, so every pair is joined anyway.
// Snowflake also reads JOIN t WHERE ... as a cross join, its condition in
// the WHERE; there ON TRUE goes in only where the token after the item
// shows it ended (WHERE, GROUP BY, another join, the end of the query),
// never before Jinja, which may hold the ON.
func (d *dialect) joinWithoutOn(i int) {
	if w := d.Word(i - 1); w == "CROSS" || w == "NATURAL" {
		return
	}
	j := i + 1
	lateral := d.Word(j) == "LATERAL"
	if lateral {
		j++
	}
	if d.Word(j) == "UNNEST" && d.Punct(j+1, '(') || lateral && d.Kind(j) == sqltext.Word && d.Punct(j+1, '(') {
		k := d.arrayJoinEnd(j)
		if k > 0 && d.Word(k) != "ON" && d.Word(k) != "USING" {
			d.replace(int(d.Code[k-1].End), int(d.Code[k-1].End), " ON TRUE")
		}
		return
	}
	k := d.fromItemEnd(j)
	if k < 0 || !d.itemEnded(k) || d.deferredOn(k) {
		return
	}
	d.replace(int(d.Code[k-1].End), int(d.Code[k-1].End), " ON TRUE")
}

// arrayJoinEnd returns the index after a joined array or table function
// that starts at j, with its alias and BigQuery's WITH OFFSET, or -1.
func (d *dialect) arrayJoinEnd(j int) int {
	k := d.closing(j+1) + 1
	if k == 0 {
		return -1
	}
	if d.Word(k) == "AS" {
		k++
	}
	if k < len(d.Code) && d.aliasToken(k) {
		k++
	}
	if d.Word(k) == "WITH" && d.Word(k+1) == "OFFSET" {
		k += 2
		if d.Word(k) == "AS" {
			k++
		}
		if k < len(d.Code) && d.aliasToken(k) {
			k++
		}
	}
	return k
}

// fromItemEnd returns the index after the FROM item that starts at j and
// its alias: a relation name, a bracketed subquery or join, or a table
// function; -1 when it is none of these.
func (d *dialect) fromItemEnd(j int) int {
	k := j
	switch {
	case d.Punct(j, '('):
		k = d.closing(j) + 1
	case d.Word(j) == "TABLE" && d.Punct(j+1, '('):
		k = d.closing(j+1) + 1
	default:
		if k = d.nameEnd(j); k == j {
			return -1
		}
		if d.Punct(k, '(') {
			k = d.closing(k) + 1
		}
	}
	if k <= j {
		return -1
	}
	if d.Word(k) == "AS" {
		if !d.aliasToken(k + 1) {
			return -1
		}
		k++
	}
	if d.aliasToken(k) {
		k++
		if d.Punct(k, '(') {
			// The alias names the item's columns too: AS x(a, b).
			k = d.closing(k) + 1
		}
	}
	if k <= j {
		return -1
	}
	return k
}

// itemEnded reports whether the token at k shows that a FROM item ended
// before it without a join condition: a clause that follows the FROM
// clause, another item or join, or the end of the query.
func (d *dialect) itemEnded(k int) bool {
	if k >= len(d.Code) || d.Punct(k, ';') || d.Punct(k, ')') || d.Punct(k, ',') {
		return true
	}
	return d.Kind(k) == sqltext.Word && fromClauseEnds[d.Word(k)]
}

var fromClauseEnds = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true, "WINDOW": true, "ORDER": true, "LIMIT": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true,
	"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true,
}

// deferredOn reports whether a condition after k belongs to the join
// before k, as in a JOIN b JOIN c ON c.x = b.x ON b.y = a.y, where the
// last ON joins b: the FROM clause from k on holds more conditions than
// joins that take one.
func (d *dialect) deferredOn(k int) bool {
	joins, conditions := 0, 0
	for x := k; x < d.ends.At(min(k, len(d.Code)-1)) && x < len(d.Code); x++ {
		switch w := d.Word(x); {
		case d.Punct(x, '(') || d.Punct(x, '['):
			if d.match.At(x) < x {
				return false
			}
			x = d.match.At(x)
		case d.Punct(x, ')'):
			return conditions > joins
		case w == "JOIN":
			if p := d.Word(x - 1); p != "CROSS" && p != "NATURAL" {
				joins++
			}
		case w == "ON" || w == "USING":
			conditions++
		case w != "" && fromClauseEnds[w] && !joinWords[w]:
			return conditions > joins
		}
	}
	return conditions > joins
}

// joinWords begin a join.
var joinWords = map[string]bool{"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true}

// usingColumns drops the qualifiers some warehouses accept in a join's
// column list, USING (t.id): PostgreSQL names the columns alone, and the
// join compares the same columns.
func (d *dialect) usingColumns(i int) {
	c := d.closing(i + 1)
	if c < 0 {
		return
	}
	var drops [][2]int
	for k := i + 2; k < c; k++ {
		start := k
		for d.Punct(k+1, '.') && d.nameStart(k) && d.nameStart(k+2) {
			k += 2
		}
		if !d.nameStart(k) || !d.Punct(k+1, ',') && k+1 != c {
			return // not a list of names
		}
		if k > start {
			drops = append(drops, [2]int{start, k - 1})
		}
		k++
	}
	for _, dr := range drops {
		d.replace(int(d.Code[dr[0]].Start), int(d.Code[dr[1]].End), "")
	}
}

// aliasToken reports whether token k can be an alias.
func (d *dialect) aliasToken(k int) bool {
	switch d.Kind(k) {
	case sqltext.Backtick, sqltext.QuotedIdent:
		return true
	case sqltext.Word:
		return !aliasStops[d.Word(k)]
	}
	return false
}

// aliasStops begin a clause or a join where an alias could stand.
var aliasStops = map[string]bool{
	"ON": true, "USING": true, "WHERE": true, "JOIN": true, "LEFT": true, "RIGHT": true, "INNER": true,
	"FULL": true, "CROSS": true, "NATURAL": true, "LATERAL": true, "GROUP": true, "ORDER": true,
	"HAVING": true, "QUALIFY": true, "WINDOW": true, "LIMIT": true, "UNION": true, "EXCEPT": true,
	"INTERSECT": true, "WITH": true, "AS": true, "SELECT": true, "FROM": true, "WHEN": true, "THEN": true,
	"MINUS": true, "PIVOT": true, "UNPIVOT": true,
}

// pivot rewrites the PIVOT and UNPIVOT that Snowflake, BigQuery and
// Databricks write after a FROM item into a lateral subquery of the same
// expressions, in place, so that what they read stays read:
//
//	t PIVOT (SUM(v) FOR k IN ('a', 'b')) AS p
//	t AS p CROSS JOIN LATERAL (SELECT SUM(v), k IN ('a', 'b'))
//	t UNPIVOT (val FOR col IN (a, b)) u
//	t AS u CROSS JOIN LATERAL (SELECT NULL AS val, NULL AS col, (a, b))
//
// The alias moves to the item, whose columns the result keeps; an item
// with an alias of its own leaves it to the subquery. A subquery in the IN
// list stays a subquery; Snowflake's dynamic IN (ANY ...) and BigQuery's
// unpivot of several columns at once are left to the token reading.
func (d *dialect) pivot(i int) {
	unpivot := d.Word(i) == "UNPIVOT"
	o := i + 1
	if w := d.Word(o); unpivot && (w == "INCLUDE" || w == "EXCLUDE") && d.Word(o+1) == "NULLS" {
		o += 2
	}
	c := d.closing(o)
	if c < 0 || !d.sourceEnds(i) {
		return
	}
	f := d.wordOutsideBrackets(o+1, c, "FOR")
	in := d.wordOutsideBrackets(max(f, o+1), c, "IN")
	if f <= o+1 || in <= f+1 || !d.Punct(in+1, '(') || d.Word(in+2) == "ANY" {
		return
	}
	list := d.closing(in + 1)
	if list < 0 || list > c {
		return
	}
	if unpivot && (f != o+2 || in != f+2 || !d.aliasToken(o+1) || !d.aliasToken(f+1)) {
		return
	}
	if list < c-1 && !(d.Word(list+1) == "DEFAULT" && d.Word(list+2) == "ON" && d.Word(list+3) == "NULL") {
		return
	}
	alias, aliasEnd := d.pivotAlias(c + 1)
	head := "CROSS JOIN LATERAL (SELECT "
	if alias != "" && !d.sourceAliased(i) {
		d.replace(int(d.Code[i-1].End), int(d.Code[i-1].End), " AS "+alias)
		d.drop(c+1, aliasEnd-1)
	}
	if unpivot {
		d.replaceToks(i, o, head+"NULL AS ")
		d.replaceTok(f, ", NULL AS")
		d.replaceTok(in, ",")
	} else {
		d.replaceToks(i, o, head)
		d.replaceTok(f, ",")
	}
	d.inListAliases(in+1, list)
	if list < c-1 {
		d.drop(list+1, c-1) // DEFAULT ON NULL (0) fills what has no value
	}
}

// sourceEnds reports whether the token before i ends a FROM item that a
// PIVOT may follow: a name, an alias or a bracketed subquery.
func (d *dialect) sourceEnds(i int) bool {
	return d.nameEnded(i) || d.Punct(i-1, ')') && d.match.At(i-1) >= 0
}

// sourceAliased reports whether the FROM item before the PIVOT at i has
// an alias of its own: FROM t AS x PIVOT, FROM (SELECT ...) s PIVOT.
func (d *dialect) sourceAliased(i int) bool {
	if d.Word(i-2) == "AS" {
		return true
	}
	switch d.Kind(i - 1) {
	case sqltext.Word, sqltext.QuotedIdent, sqltext.Backtick:
	default:
		return false
	}
	switch d.Kind(i - 2) {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.JinjaExpr:
		return !d.touch(i-2, i-1)
	case sqltext.Word:
		return !beforeTablePath[d.Word(i-2)] && !notNames[d.Word(i-2)]
	}
	return d.Punct(i-2, ')')
}

// pivotAlias returns the alias after a PIVOT's closing bracket, as
// PostgreSQL writes it with its column list, and the index after it; ""
// when there is none.
func (d *dialect) pivotAlias(k int) (string, int) {
	start := k
	if d.Word(k) == "AS" {
		k++
	}
	if !d.aliasToken(k) {
		return "", start
	}
	alias := d.identText(k)
	k++
	if d.Punct(k, '(') {
		c := d.closing(k)
		if c < 0 {
			return "", start
		}
		alias += d.Src[d.Code[k].Start:d.Code[c].End]
		k = c + 1
	}
	return alias, k
}

// inListAliases drops the names BigQuery and Databricks give the values of
// a PIVOT's or UNPIVOT's IN list, IN ('a' AS x, b AS 'y'): the list reads
// the same values without them.
func (d *dialect) inListAliases(open, close int) {
	for k := open + 1; k < close; k++ {
		if d.Punct(k, '(') || d.Punct(k, '[') {
			if d.match.At(k) > k {
				k = d.match.At(k)
			}
			continue
		}
		if !d.Punct(k+1, ',') && k+1 != close {
			continue
		}
		switch {
		case d.Word(k-1) == "AS" && k-2 > open:
			d.drop(k-1, k)
		case d.aliasToken(k) && k-1 > open && !d.Punct(k-1, ',') && !d.Punct(k-1, '.') && d.Kind(k-1) != sqltext.Operator:
			d.drop(k, k) // a value named without AS: 'a' x
		}
	}
}

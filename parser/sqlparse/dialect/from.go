package dialect

import "github.com/bflint/bflint/parser/sqlparse/sqltext"

// FROM clauses: joins written without a condition, and qualified join
// columns.

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
			d.replace(d.Code[k-1].End, d.Code[k-1].End, " ON TRUE")
		}
		return
	}
	k := d.fromItemEnd(j)
	if k < 0 || !d.itemEnded(k) || d.deferredOn(k) {
		return
	}
	d.replace(d.Code[k-1].End, d.Code[k-1].End, " ON TRUE")
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
	for x := k; x < d.ends[min(k, len(d.Code)-1)] && x < len(d.Code); x++ {
		switch w := d.Word(x); {
		case d.Punct(x, '(') || d.Punct(x, '['):
			if d.match[x] < x {
				return false
			}
			x = d.match[x]
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
		d.replace(d.Code[dr[0]].Start, d.Code[dr[1]].End, "")
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
}

package dialect

import "github.com/bflint/bflint/parser/sqlparse/sqltext"

// Snowflake's semi-structured data: paths into a VARIANT, object constants.

// path rewrites Snowflake's semi-structured access (src:a.b[0], $1:"Key",
// v :a :: string, a:b:c) into PostgreSQL's -> operators, bracketed so a
// following :: cast applies to the whole path. It reports whether i starts
// such a path.
func (d *dialect) path(i int) bool {
	key, k := d.pathLevel(i)
	if k < 0 {
		return false
	}
	b := d.pathBase(i - 1)
	if b < 0 {
		return false
	}
	spaced := !d.touch(i-1, i) || k == i+2 && !d.touch(i, i+1)
	switch {
	case spaced && !d.spacedPath(b, i):
		return false
	case !spaced && d.Punct(b-1, '[') && d.Punct(k, ']'):
		return false // an array slice a[lo:hi]
	}
	edits := []sqltext.Edit{{Start: int(d.Code[i].Start), End: int(d.Code[k-1].End), Text: "->" + quoteString(key)}}
segments:
	for {
		switch {
		case d.Punct(k, '.') && d.touch(k-1, k) && d.touch(k, k+1) && d.Kind(k+1) == sqltext.Word:
			edits = append(edits, sqltext.Edit{Start: int(d.Code[k].Start), End: int(d.Code[k+1].End), Text: "->" + quoteString(d.Code[k+1].Text(d.Src))})
			k += 2
		case d.Punct(k, '.') && d.touch(k-1, k) && d.touch(k, k+1) && d.Kind(k+1) == sqltext.QuotedIdent:
			edits = append(edits, sqltext.Edit{Start: int(d.Code[k].Start), End: int(d.Code[k+1].End), Text: "->" + quoteString(sqltext.IdentName(d.Code[k+1].Text(d.Src)))})
			k += 2
		case d.Punct(k, '[') && d.Punct(k+2, ']'):
			edits = append(edits, sqltext.Edit{Start: int(d.Code[k].Start), End: int(d.Code[k].End), Text: "->"}, sqltext.Edit{Start: int(d.Code[k+2].Start), End: int(d.Code[k+2].End), Text: ""})
			k += 3
		default:
			// Each further :key is one level deeper, PARSE_URL(u):parameters:utm_source.
			key, next := d.pathLevel(k)
			if next < 0 {
				break segments
			}
			edits = append(edits, sqltext.Edit{Start: int(d.Code[k].Start), End: int(d.Code[next-1].End), Text: "->" + quoteString(key)})
			k = next
		}
	}
	// The closing bracket goes into the last segment's replacement: an
	// insertion at the end of a statement would fall outside it.
	edits[len(edits)-1].Text += ")"
	d.replace(int(d.Code[b].Start), int(d.Code[b].Start), "(")
	d.edits = append(d.edits, edits...)
	for x := i; x < k; x++ {
		d.done[x] = true
	}
	return true
}

// pathLevel reads the :key that starts at k, as the lexer splits it: one
// token (:key), or a colon and a name, with or without a blank between
// (v: key, v :"Key"). It returns the key and the index after it, or -1.
func (d *dialect) pathLevel(k int) (string, int) {
	switch {
	case d.Kind(k) == sqltext.Param && d.Src[d.Code[k].Start] == ':':
		return d.Code[k].Text(d.Src)[1:], k + 1
	case d.Op(k) != ":":
	case d.Kind(k+1) == sqltext.Word:
		return d.Code[k+1].Text(d.Src), k + 2
	case d.Kind(k+1) == sqltext.QuotedIdent:
		return sqltext.IdentName(d.Code[k+1].Text(d.Src)), k + 2
	}
	return "", -1
}

// pathBase returns the first token of the value whose last token is b and
// that a path may follow: a column, possibly qualified (t.src), a stage
// column ($1), a call (PARSE_URL(u)) or a subscript of one (v[0]); -1 for
// anything else.
func (d *dialect) pathBase(b int) int {
	for d.Punct(b, ']') {
		o := d.match.At(b)
		if o < 1 {
			return -1
		}
		b = o - 1
	}
	switch base := d.Code[max(b, 0)]; {
	case b < 0:
		return -1
	case base.Kind == sqltext.Word, base.Kind == sqltext.QuotedIdent, base.Kind == sqltext.Param && d.Src[base.Start] == '$':
	case d.Punct(b, ')') && d.match.At(b) > 0 && d.Kind(d.match.At(b)-1) == sqltext.Word:
		b = d.match.At(b) - 1
	default:
		return -1
	}
	for b >= 2 && d.Punct(b-1, '.') && d.touch(b-1, b) && d.touch(b-2, b-1) && (d.Kind(b-2) == sqltext.Word || d.Kind(b-2) == sqltext.QuotedIdent) {
		b -= 2
	}
	return b
}

// spacedPath reports whether a colon written with a blank beside it, at i,
// continues the value that starts at b rather than standing for a bind
// variable (WHERE x = :p, LIMIT :n) or a slice's bound (a[lo : hi]), or
// ending a BigQuery script label (outer: LOOP).
func (d *dialect) spacedPath(b, i int) bool {
	if d.Kind(i-1) == sqltext.Word && valueFollows[d.Word(i-1)] || d.stmtStart(b) {
		return false
	}
	o := d.parent.At(i)
	return o < 0 || !d.Punct(o, '[')
}

// sliceBound reports whether the :name at i is the upper bound of an
// array slice, a[lo:hi], which PostgreSQL reads as written.
func (d *dialect) sliceBound(i int) bool {
	o := d.parent.At(i)
	return o > 0 && d.Punct(o, '[') && d.Punct(i+1, ']') && d.touch(i-1, i) && d.Kind(o-1) != sqltext.Operator && !d.Punct(o-1, '(') && !d.Punct(o-1, ',')
}

// valueFollows are the keywords a bind variable may follow, where a value
// starts: none of them is a column a path reads.
var valueFollows = map[string]bool{
	"SELECT": true, "DISTINCT": true, "ALL": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "IN": true,
	"THEN": true, "ELSE": true, "WHEN": true, "CASE": true, "END": true, "DEFAULT": true, "RETURN": true, "ON": true,
	"HAVING": true, "QUALIFY": true, "BY": true, "VALUES": true, "IS": true, "LIKE": true, "ILIKE": true, "RLIKE": true,
	"BETWEEN": true, "SET": true, "ANY": true, "SOME": true, "LIMIT": true, "OFFSET": true, "TOP": true, "FETCH": true,
	"INTO": true, "IMMEDIATE": true, "INTERVAL": true, "ESCAPE": true, "AS": true, "FROM": true, "JOIN": true,
	"USING": true, "EXISTS": true, "TABLE": true,
}

// object rewrites Snowflake's object constant {'a': 1, 'b': x} into the
// call that builds the same object, OBJECT_CONSTRUCT('a', 1, 'b', x):
// PostgreSQL has no braces. Each key is a string followed by a colon,
// which the lexer may join to what follows (:x, :-1).
func (d *dialect) object(i int) {
	if d.Op(i-1) == "$" && d.touch(i-1, i) {
		return // a ${variable} of some templating tool
	}
	var colons []int
	end, key := -1, true
scan:
	for k := i + 1; k < d.ends.At(i); k++ {
		switch t := d.Code[k]; {
		case d.Punct(k, '(') || d.Punct(k, '['):
			if d.match.At(k) < k {
				return
			}
			k = d.match.At(k)
		case d.Punct(k, ')') || d.Punct(k, ']'):
			return
		case d.Op(k) == "}":
			if !key && len(colons) == 0 || key && len(colons) > 0 {
				return // a key without a value
			}
			end = k
			break scan
		case d.Op(k) == "{":
			if e := d.objectEnd(k); e > k {
				k = e
			} else {
				return
			}
		case key:
			if t.Kind != sqltext.String || !d.objectColon(k+1) {
				return
			}
			colons, key = append(colons, k+1), false
			k++
		case d.Punct(k, ','):
			key = true
		}
	}
	if end < 0 {
		return
	}
	d.replaceTok(i, "OBJECT_CONSTRUCT(")
	for _, c := range colons {
		text := d.Code[c].Text(d.Src)
		d.replaceTok(c, ", "+text[1:])
		d.done[c] = true
	}
	d.replaceTok(end, ")")
	d.done[end] = true
}

// objectColon reports whether token k separates an object constant's key
// from its value: a colon, alone or joined to the value's start.
func (d *dialect) objectColon(k int) bool {
	switch d.Kind(k) {
	case sqltext.Param:
		return d.Src[d.Code[k].Start] == ':'
	case sqltext.Operator:
		op := d.Op(k)
		return op == ":" || op == ":-" || op == ":+"
	}
	return false
}

// objectEnd returns the index of the brace that closes the one at k, or -1.
func (d *dialect) objectEnd(k int) int {
	depth := 0
	for end := d.ends.At(k); k < end; k++ {
		switch {
		case d.Op(k) == "{":
			depth++
		case d.Op(k) == "}":
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

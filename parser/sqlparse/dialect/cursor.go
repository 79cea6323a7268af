package dialect

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Edits and the token cursor the rewrites move with.

// replace records an edit of the original text.
func (d *dialect) replace(start, end int, text string) {
	d.edits = append(d.edits, sqltext.Edit{Start: start, End: end, Text: text})
}

// replaceTok replaces code token i.
func (d *dialect) replaceTok(i int, text string) {
	d.replaceToks(i, i, text)
}

// replaceToks replaces code tokens i to j, and what lies between them.
func (d *dialect) replaceToks(i, j int, text string) {
	d.replace(int(d.Code[i].Start), int(d.Code[j].End), text)
}

// drop removes code tokens i to j, and what lies between them. A space
// stands in when the tokens around would otherwise run together.
func (d *dialect) drop(i, j int) {
	text := ""
	if i > 0 && j+1 < len(d.Code) && d.touch(i-1, i) && d.touch(j, j+1) {
		text = " "
	}
	d.replaceToks(i, j, text)
}

func (d *dialect) mark(i int, f Flags) {
	d.marks = append(d.marks, Mark{Offset: int(d.Code[i].Start), Flags: f})
}

// touch reports whether code tokens i and j stand with nothing between.
func (d *dialect) touch(i, j int) bool {
	return i >= 0 && j < len(d.Code) && d.Code[i].End == d.Code[j].Start
}

// closing returns the index of the bracket that closes the one at i, or -1.
func (d *dialect) closing(i int) int {
	if i < 0 || i >= len(d.Code) || d.match.At(i) < i {
		return -1
	}
	return d.match.At(i)
}

// scanTo returns the first index from i where stop holds outside brackets,
// or where the enclosing bracket closes, the statement ends or a Jinja tag
// stands: a rewrite must never swallow a Jinja branch. A scan that starts
// within the span of the last one for the same purpose, at the same depth,
// stops where that one did.
func (d *dialect) scanTo(i int, purpose string, stop func(int) bool) int {
	if i >= len(d.Code) {
		return len(d.Code)
	}
	if last, ok := d.scans[purpose]; ok && last[0] < i && i <= last[1] && d.parent.At(i) == d.parent.At(last[0]) {
		return last[1]
	}
	end, k := d.ends.At(i), i
	for ; k < end; k++ {
		if stop(k) || d.Punct(k, ')') || d.Punct(k, ']') {
			break
		}
		if d.Punct(k, '(') || d.Punct(k, '[') {
			if d.match.At(k) < 0 || d.match.At(k) >= end {
				k = end // the bracket holds the statement's end
				break
			}
			k = d.match.At(k)
		}
	}
	d.scans[purpose] = [2]int{i, k}
	return k
}

// stmtEnd returns the index of the ';' or Jinja tag that ends the
// statement holding i, or the number of code tokens.
func (d *dialect) stmtEnd(i int) int { return d.ends.At(i) }

// stmtStart reports whether code token i begins a statement.
func (d *dialect) stmtStart(i int) bool {
	if i == 0 || d.starts[i] {
		return true
	}
	p := d.Code[i-1]
	return d.Punct(i-1, ';') || p.Kind == sqltext.JinjaTag || p.Kind == sqltext.JinjaExpr
}

// dmlStart reports whether code token i begins a statement that may follow
// a WITH clause: it starts a statement, or follows a common table
// expression's closing bracket.
func (d *dialect) dmlStart(i int) bool {
	if d.stmtStart(i) {
		return true
	}
	o := d.match.At(i - 1)
	return d.Punct(i-1, ')') && o > 0 && (d.Word(o-1) == "AS" || d.Word(o-1) == "MATERIALIZED")
}

// ReplacingQuery reports whether the query of INSERT ... REPLACE WHERE
// starts at token k of c, rather than a subquery of its condition. The
// token reader decides it the same way.
func ReplacingQuery(c *sqltext.Cursor, k int) bool {
	switch c.Word(k) {
	case "SELECT", "WITH", "VALUES", "TABLE":
		return true
	}
	if !c.Punct(k, '(') || (c.Word(k+1) != "SELECT" && c.Word(k+1) != "WITH") {
		return false
	}
	switch c.Word(k - 1) {
	case "IN", "EXISTS", "ANY", "SOME", "ALL", "AND", "OR", "NOT", "WHERE":
		return false
	}
	return c.Kind(k-1) != sqltext.Operator && !c.Punct(k-1, '(') && !c.Punct(k-1, ',')
}

func (d *dialect) replacingQuery(k int) bool { return ReplacingQuery(&d.Cursor, k) }

// notNames are the words that follow DELETE, INSERT or MERGE where a
// relation name would stand but begin something else.
var notNames = map[string]bool{
	"FROM": true, "INTO": true, "WHEN": true, "WHERE": true, "VALUES": true, "ROW": true, "DEFAULT": true,
	"SELECT": true, "WITH": true, "SET": true, "USING": true, "ON": true, "OVERWRITE": true, "TABLE": true,
}

// nameStart reports whether a relation name can start at i.
func (d *dialect) nameStart(i int) bool {
	if i >= len(d.Code) {
		return false
	}
	switch d.Kind(i) {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.JinjaExpr:
		return true
	case sqltext.Word:
		return !notNames[d.Word(i)]
	}
	return false
}

// nameEnd returns the index after a possibly qualified relation name that
// starts at i, or i when none does. dbt Jinja may stand for any part, or
// glue onto one.
func (d *dialect) nameEnd(i int) int {
	part := func(k int) bool {
		if k >= len(d.Code) {
			return false
		}
		switch d.Kind(k) {
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
		case d.Punct(k, '.') && part(k+1):
			k += 2
		case part(k) && d.touch(k-1, k) && (d.Kind(k) == sqltext.JinjaExpr || d.Kind(k-1) == sqltext.JinjaExpr):
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

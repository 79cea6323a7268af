package jinja

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/internal/scratch"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// boolBuffers lends the per-token marks of a reading of a template.
var boolBuffers scratch.Pool[bool]

// How a placeholder is shaped for where it stands: a reading of the SQL
// code around each Jinja expression.

// jinjaReading is the SQL code one variant keeps, with what the shape of a
// placeholder depends on: its neighbours, the brackets around it and the
// clause it stands in.
type jinjaReading struct {
	sqltext.Cursor
	lent  bool // Code is a lent buffer
	tp    *jinjaTemplate
	match sqltext.Table // the bracket that closes or opens this one, -1 if none
	piece sqltext.Table // the statement each token is in
	// lead is set on the Jinja expressions a statement starts with.
	lead    []bool
	clauses map[int]string
}

// newReading reads vis, the code a variant keeps: lent says it is a lent
// buffer, which release gives back.
func newReading(tp *jinjaTemplate, vis []sqltext.Token, lent bool) *jinjaReading {
	n := len(vis)
	r := &jinjaReading{Cursor: sqltext.NewCursor(tp.src, vis), lent: lent, tp: tp, piece: scratch.Int32s.Get(n), lead: boolBuffers.Get(n), clauses: map[int]string{}}
	r.match = r.BracketsInto(scratch.Int32s.Get(n))
	p := 0
	for k, t := range vis {
		for p < len(tp.pieces) && tp.pieces[p].End <= int(t.Start) {
			p++
		}
		r.piece[k] = int32(p)
		if t.Kind == sqltext.JinjaExpr {
			prev := r.prev(k)
			r.lead[k] = prev < 0 || r.lead[prev]
		}
	}
	return r
}

// release gives back the tables newReading lent, and vis, the tokens
// it was made from, when they were lent.
func (r *jinjaReading) release() {
	if r.lent {
		sqltext.TokenBuffers.Put(r.Code)
	}
	scratch.Int32s.Put(r.match)
	scratch.Int32s.Put(r.piece)
	boolBuffers.Put(r.lead)
	*r = jinjaReading{}
}

// prev and next return the neighbouring code token in the same statement,
// -1 at its start or end.
func (r *jinjaReading) prev(k int) int {
	if k > 0 && r.piece.At(k-1) == r.piece.At(k) {
		return k - 1
	}
	return -1
}

func (r *jinjaReading) next(k int) int {
	if k+1 < len(r.Code) && r.piece.At(k+1) == r.piece.At(k) && !r.Punct(k+1, ';') {
		return k + 1
	}
	return -1
}

// listClauses start a clause, so the last one before a comma at the same
// depth says what the comma separates.
var listClauses = wordSet("SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "QUALIFY", "WINDOW", "LIMIT", "OFFSET",
	"WITH", "SET", "VALUES", "INTO", "UNION", "INTERSECT", "EXCEPT", "MINUS", "RETURNING", "JOIN", "ON", "USING", "UPDATE")

// clause returns the clause word a comma at k stands in, "(" when it is
// directly inside brackets, "" at the start of a statement. Commas passed
// on the way remember the answer, so a long list is walked once.
func (r *jinjaReading) clause(k int) string {
	var commas []int
	word := ""
	for j := k; ; j-- {
		if j < 0 || r.piece.At(j) != r.piece.At(k) {
			break
		}
		if r.Punct(j, ',') {
			if w, ok := r.clauses[j]; ok {
				word = w
				break
			}
			commas = append(commas, j)
			continue
		}
		if (r.Punct(j, ')') || r.Punct(j, ']')) && r.match.At(j) >= 0 {
			j = r.match.At(j)
			continue
		}
		if r.Punct(j, '(') || r.Punct(j, '[') {
			word = "("
			break
		}
		if w := r.Word(j); listClauses[w] {
			word = w
			break
		}
	}
	for _, c := range commas {
		r.clauses[c] = word
	}
	return word
}

// operandWanted are words after which an operand must follow; after any other
// word, a name, a literal or a closing bracket, an operand has ended.
var operandWanted = wordSet("SELECT", "DISTINCT", "ALL", "FROM", "WHERE", "AND", "OR", "NOT", "AS", "ON", "JOIN", "BY", "IN", "IS",
	"THEN", "ELSE", "WHEN", "CASE", "INTO", "UPDATE", "SET", "USING", "TABLE", "WITH", "RECURSIVE", "UNION", "INTERSECT",
	"EXCEPT", "MINUS", "HAVING", "LIMIT", "OFFSET", "QUALIFY", "LIKE", "ILIKE", "RLIKE", "BETWEEN", "INTERVAL", "VALUES",
	"RETURNING", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL", "LATERAL", "OVER", "PARTITION", "ORDER",
	"GROUP", "WINDOW", "MERGE", "INSERT", "DELETE", "CREATE", "REPLACE", "VIEW", "ESCAPE", "SIMILAR", "TO", "ANY", "SOME",
	"EXISTS")

// tailFollowers may follow a complete clause, so a macro between an
// operand and one of them adds to the clause (a filter, more columns, a
// join) and may be left out.
var tailFollowers = wordSet("FROM", "WHERE", "GROUP", "ORDER", "HAVING", "QUALIFY", "LIMIT", "OFFSET", "UNION", "INTERSECT",
	"EXCEPT", "MINUS", "WINDOW", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "JOIN", "NATURAL", "AND", "OR", "WHEN", "THEN",
	"ELSE", "END", "SELECT", "RETURNING", "ON")

// preambleFollowers start a statement: a macro before one writes a preamble
// (a comment, a hook, a variable) that the statement does not need.
var preambleFollowers = wordSet("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE",
	"BEGIN", "COMMIT", "COPY", "GRANT", "SET", "USE", "CALL", "EXECUTE", "VALUES")

// queryOpeners may stand before a bracket that holds a whole query.
var queryOpeners = wordSet("AS", "FROM", "JOIN", "LATERAL", "EXISTS", "UNION", "ALL", "INTERSECT", "EXCEPT", "MINUS",
	"MATERIALIZED", "DISTINCT")

// readRelationWords and writeRelationWords stand before a relation that is read or written.
var (
	readRelationWords  = wordSet("FROM", "JOIN", "USING")
	writeRelationWords = wordSet("INTO", "UPDATE", "TABLE")
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// operandEnded reports whether the token at k ends an operand.
func (r *jinjaReading) operandEnded(k int) bool {
	switch r.Kind(k) {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.Number, sqltext.String, sqltext.JinjaExpr:
		return true
	case sqltext.Word:
		return !operandWanted[r.Word(k)]
	}
	return r.Punct(k, ')') || r.Punct(k, ']')
}

// queryStart reports whether a placeholder after prev starts a query: at
// the start of a statement, or in brackets that hold a query.
func (r *jinjaReading) queryStart(prev int) bool {
	if prev < 0 {
		return true
	}
	if !r.Punct(prev, '(') {
		return false
	}
	before := r.prev(prev)
	if before < 0 || r.Punct(before, '(') {
		return true
	}
	if r.Punct(before, ',') {
		c := r.clause(before)
		return readRelationWords[c] || c == "ON"
	}
	return queryOpeners[r.Word(before)]
}

// shape returns the text that replaces the Jinja expression at k.
func (r *jinjaReading) shape(k int) string {
	t := r.Code[k]
	src := r.tp.src
	inner := jinjaInner(t.Text(src))
	glued := sqltext.WordBefore(src, int(t.Start)) && !keywordEndsAt(src, int(t.Start)) ||
		int(t.End) < len(src) && sqltext.IsWordPart(src[t.End]) && !keywordStartsAt(src, int(t.End))
	if name, ok := r.tp.name(inner); ok {
		switch {
		case !glued:
			return " " + name + " "
		case plainIdent.MatchString(name):
			return name
		}
		return placeholder
	}
	if glued {
		// Part of a name, as in stg_{{ var('source') }}: one identifier.
		return placeholder
	}
	name, kind := macroOf(inner)
	reads := r.tp.relations(inner)
	if kind == columnList {
		reads = nil // star() and pivot() look the columns up; the query does not read them
	}
	query := "SELECT 1"
	switch {
	case name == "date_spine":
		part := "day"
		for _, arg := range jinjaArgs(inner) {
			if key, value, ok := kwarg(arg); ok && key == "datepart" {
				if s, ok := jinjaString(value); ok && plainIdent.MatchString(s) {
					part = s
				}
			}
		}
		query = "SELECT " + placeholder + " AS date_" + part
	case len(reads) > 0:
		query = "SELECT * FROM " + strings.Join(reads, " UNION ALL SELECT * FROM ")
	}
	pad := func(s string) string { return " " + s + " " }
	prev, next := r.prev(k), r.next(k)
	if r.lead[k] && prev >= 0 {
		return " " // the first of the macros a statement starts with stands for them all
	}
	project := r.tp.opts.Macros[name].Shape
	if project == MacroWithHead && r.queryStart(prev) && next >= 0 && r.Kind(next) == sqltext.Word && r.Word(r.next(next)) == "AS" {
		// The model's next WITH query follows the macro's list, after the
		// comma the macro writes last.
		return pad("WITH " + cteShape(query) + ",")
	}
	pw, nw := r.Word(prev), r.Word(next)
	comma := ""
	if r.Punct(prev, ',') {
		comma = r.clause(prev)
	}
	if prev < 0 {
		// What follows the macros a statement starts with decides what
		// they write.
		for next >= 0 && r.Kind(next) == sqltext.JinjaExpr {
			next = r.next(next)
		}
		nw = r.Word(next)
	}
	if cte := r.cteBefore(prev); cte != "" && (next < 0 || r.Punct(next, ';')) {
		// After a WITH list only the final query can stand: a macro there
		// writes it (GitLab's dbt_audit(cte_ref="final", ...)). It reads
		// the WITH query it names, else the last one.
		for _, arg := range jinjaArgs(inner) {
			if _, value, ok := kwarg(arg); ok {
				arg = value
			}
			if s, ok := jinjaString(arg); ok && plainIdent.MatchString(s) && r.definesCTE(s) {
				cte = s
				break
			}
		}
		return pad("SELECT * FROM " + cte)
	}
	switch {
	case r.queryStart(prev):
		switch {
		case next < 0 || r.Punct(next, ')'):
			if prev < 0 && next < 0 && query == "SELECT 1" {
				r.tp.opaque(int(t.Start), name)
			}
			return pad(query)
		case r.Punct(next, ','):
			return pad("WITH " + cteShape(query))
		case nw == "FROM":
			return " SELECT * "
		case preambleFollowers[nw] || r.Punct(next, '('):
			return " "
		}
		return pad(query)
	case pw == "INTERVAL":
		return " '" + placeholder + "' "
	case pw == "IN" && !r.Punct(next, '('):
		// The macro writes the list, ('a', 'b'), or a subquery.
		if kind == queryMacro || len(reads) > 0 {
			return pad("(" + query + ")")
		}
		return pad("(" + placeholder + ")")
	case pw == "WITH" || pw == "RECURSIVE" || comma == "WITH":
		if nw == "AS" || r.Punct(next, '(') {
			return pad(placeholder) // the name of a CTE
		}
		return pad(cteShape(query))
	case pw == "FROM" && r.Word(r.prev(prev)) == "DELETE", writeRelationWords[pw]:
		return pad(placeholder)
	case readRelationWords[pw] || readRelationWords[comma] || comma == "ON":
		if (kind == queryMacro || len(reads) > 0) && !r.Punct(next, '.') {
			return pad("(" + query + ")")
		}
		return pad(placeholder)
	}
	if project == MacroSelectItems && (comma == "SELECT" || pw == "SELECT") && nw != "AS" {
		// Its items end in a comma, which a last item does not keep.
		if next < 0 || r.Punct(next, ')') || r.Punct(next, ',') || sqltext.EndsSelectList(nw) {
			return " * "
		}
		return " *, "
	}
	if kind == unknownMacro && prev >= 0 {
		if col := columnArgument(inner); col != "" {
			// A macro handed one column by name, as in
			// {{ coalesce_to_infinity('d.valid_to') }}, writes a value of
			// it: a bound on the column stays a bound on it.
			return pad("COALESCE(" + col + ")")
		}
	}
	switch kind {
	case nowMacro:
		return " current_timestamp "
	case todayMacro:
		return " current_date "
	case groupByMacro:
		return pad(groupByShape(inner))
	}
	selectItem := comma == "SELECT" || pw == "SELECT" || ((pw == "DISTINCT" || pw == "ALL") && r.Word(r.prev(prev)) == "SELECT")
	listEnd := next < 0 || r.Punct(next, ',') || r.Punct(next, ')') || sqltext.EndsSelectList(nw)
	switch {
	case selectItem && listEnd && kind != expressionMacro:
		// A macro in a select list may write any number of columns: a
		// star claims no column list a rule could find one missing from.
		return " * "
	case prev >= 0 && r.operandEnded(prev) && (next < 0 || r.Punct(next, ',') || r.Punct(next, ')') || tailFollowers[nw]):
		return " "
	}
	return pad(placeholder)
}

// gluingKeywords are the keywords written against a Jinja expression with
// no blank, ON{{ cond() }} or from{{ source('s', 't') }}: a keyword is its
// own word, where a name's part (stg_{{ var('x') }}) is one name with the
// expression.
var gluingKeywords = wordSet("SELECT", "FROM", "JOIN", "ON", "WHERE", "AND", "OR", "NOT", "IN", "IS", "AS", "BY", "THEN",
	"ELSE", "WHEN", "CASE", "END", "USING", "HAVING", "QUALIFY", "UNION", "ALL", "DISTINCT", "LIKE", "ILIKE", "BETWEEN",
	"INTO", "UPDATE", "SET", "VALUES", "WITH", "LIMIT", "EXISTS", "ANY", "TABLE")

// keywordEndsAt reports whether the word of src that ends at off is one of
// gluingKeywords.
func keywordEndsAt(src string, off int) bool {
	start := off
	for start > 0 && sqltext.IsWordPart(src[start-1]) {
		start--
	}
	return gluingKeywords[strings.ToUpper(src[start:off])] && (start == 0 || src[start-1] != '.')
}

// keywordStartsAt reports whether the word of src that starts at off is
// one of gluingKeywords.
func keywordStartsAt(src string, off int) bool {
	end := off
	for end < len(src) && sqltext.IsWordPart(src[end]) {
		end++
	}
	return gluingKeywords[strings.ToUpper(src[off:end])] && (end == len(src) || src[end] != '.')
}

// cteBefore returns the name of the WITH query whose body closes at
// token k, "" when k closes none.
func (r *jinjaReading) cteBefore(k int) string {
	if k < 0 || !r.Punct(k, ')') {
		return ""
	}
	open := r.match.At(k)
	if open < 1 {
		return ""
	}
	as := open - 1
	if r.Word(as) == "MATERIALIZED" {
		as-- // AS [NOT] MATERIALIZED (
	}
	if r.Word(as) == "NOT" {
		as--
	}
	if r.Word(as) != "AS" || as < 1 || r.Kind(as-1) != sqltext.Word {
		return ""
	}
	name := r.Code[as-1].Text(r.tp.src)
	if !plainIdent.MatchString(name) {
		return ""
	}
	return name
}

// definesCTE reports whether the template names a WITH query name.
func (r *jinjaReading) definesCTE(name string) bool {
	for k := 1; k+1 < len(r.Code); k++ {
		if r.Word(k) == "AS" && r.Punct(k+1, '(') && strings.EqualFold(r.Code[k-1].Text(r.tp.src), name) {
			return true
		}
	}
	return false
}

// qualifiedColumn is a column named with its relation: d.valid_to.
var qualifiedColumn = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$`)

// columnArgument returns the column a macro call names as its only
// argument, a string such as 'd.valid_to'; "" otherwise.
func columnArgument(inner string) string {
	args := jinjaArgs(inner)
	if len(args) != 1 {
		return ""
	}
	if s, ok := jinjaString(args[0]); ok && qualifiedColumn.MatchString(s) {
		return s
	}
	return ""
}

func cteShape(query string) string { return cteName + " AS (" + query + ")" }

// groupByShape writes what dbt_utils.group_by(n) writes: GROUP BY 1, ..., n.
// A count past any real select list is not believed, so a template cannot
// make the text grow without bound.
func groupByShape(inner string) string {
	n := 1
	if args := jinjaArgs(inner); len(args) > 0 {
		v := args[0]
		if _, value, ok := kwarg(v); ok {
			v = value
		}
		if m, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && m >= 1 && m <= 1000 {
			n = m
		}
	}
	cols := make([]string, n)
	for i := range cols {
		cols[i] = strconv.Itoa(i + 1)
	}
	return "GROUP BY " + strings.Join(cols, ", ")
}

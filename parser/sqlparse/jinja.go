package sqlparse

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Model is what a dbt model's {{ config(...) }} says about how it writes.
type Model struct {
	Offset              int // where the config() call stands
	Materialized        string
	IncrementalStrategy string
	UniqueKey           []string
}

// variant is one reading of a Jinja template: which branches of
// {% if is_incremental() %} it keeps, as edits over the original text.
type variant struct {
	name  string
	edits []sqltext.Edit
}

// placeholder stands where Jinja produced text bflint cannot know: an
// identifier is valid SQL wherever a relation, a column or an expression
// is expected.
const placeholder = "__jinja__"

// cteName names the common table expression that stands for a macro
// writing some: a complete one keeps a following ", name AS (...)" or
// SELECT valid.
const cteName = "__jinja_cte__"

func hasJinja(toks []sqltext.Token) bool {
	for _, t := range toks {
		if t.Kind == sqltext.JinjaExpr || t.Kind == sqltext.JinjaTag || t.Kind == sqltext.JinjaNote {
			return true
		}
	}
	return false
}

var (
	tagWord     = regexp.MustCompile(`^\{%[-+]?\s*(\w+)`)
	refCall     = regexp.MustCompile(`^ref\(\s*(['"][^'"]+['"])\s*(?:,\s*(['"][^'"]+['"])\s*)?(?:,\s*\w+\s*=\s*[^)]*)?\)$`)
	sourceCall  = regexp.MustCompile(`^source\(\s*(['"][^'"]+['"])\s*,\s*(['"][^'"]+['"])\s*\)$`)
	quoteCall   = regexp.MustCompile(`^adapter\.quote\(\s*(['"][^'"]+['"])\s*\)$`)
	relCall     = regexp.MustCompile(`\b(ref|source)\(\s*(['"][^'"]+['"])\s*(?:,\s*(['"][^'"]+['"])\s*)?(?:,\s*\w+\s*=\s*[^)]*)?\)`)
	callHead    = regexp.MustCompile(`^([A-Za-z_][\w.]*)\s*\(`)
	incremental = regexp.MustCompile(`^if\s+(not\s+)?is_incremental\(\s*\)\s*$`)
	jinjaKwarg  = regexp.MustCompile(`^(\w+)\s*=([^=].*)$`)
)

// jinjaInner returns the text inside a Jinja token without its delimiters
// and whitespace-control marks.
func jinjaInner(text string) string {
	inner := text[2 : len(text)-2]
	inner = strings.TrimLeft(inner, "-+")
	inner = strings.TrimRight(inner, "-+")
	return strings.TrimSpace(inner)
}

// jinjaTemplate is a dbt model as the Jinja reading sees it.
type jinjaTemplate struct {
	src    string
	opts   Options
	code   []sqltext.Token // code tokens, Jinja and literals holding Jinja ending where Jinja ends them
	quoted []sqltext.Edit  // those literals, quoted again for SQL
	pieces []piece
}

// jinja reads the templating of a dbt model: config() is recorded and
// removed, ref(), source() and this become relation names, macros become
// placeholders shaped for where they stand, and block tags are resolved.
// A template with {% if is_incremental() %} yields two variants, one per
// branch, so both the incremental and the full-refresh SQL are analysed.
func jinja(src string, toks, code []sqltext.Token, opts Options) ([]variant, *Model, []sqltext.Problem) {
	tp := &jinjaTemplate{src: src, opts: opts, pieces: split(src, toks)}
	tp.code, tp.quoted = jinjaTokens(src, code)
	bs, hasIncremental, problems := parseBlocks(src, tp.code)
	bs.settleCalls(tp)
	readings := []variant{{}}
	if hasIncremental {
		readings = []variant{{name: "incremental"}, {name: "full"}}
	}
	// The configuration is the last reading's: dbt reads config() when it
	// parses the project, where is_incremental() is false.
	var model *Model
	for i := range readings {
		v := &readings[i]
		blocks := bs.edits(v.name == "incremental")
		var exprs []sqltext.Edit
		exprs, model = tp.render(blocks, bs)
		v.edits = append(append(append(v.edits, tp.quoted...), blocks...), exprs...)
	}
	return readings, model, problems
}

// jinjaTokens corrects two splits of the lexer, which reads Jinja by its
// delimiters alone. Jinja ends {{ ... }} at a closing "}}" only outside
// its own brackets, so {{ config({"a": {"b": 1}}) }} is one expression.
// And dbt renders Jinja before the SQL is read, so the quotes of
// '{{ var('start') }}' never end the literal. Each becomes one token again;
// for such a literal, an edit doubles the inner quotes so the parser reads
// one literal whose value is the template text.
func jinjaTokens(src string, code []sqltext.Token) ([]sqltext.Token, []sqltext.Edit) {
	out := make([]sqltext.Token, 0, len(code))
	var edits []sqltext.Edit
	for i := 0; i < len(code); i++ {
		t := code[i]
		end := -1
		switch {
		case t.Kind == sqltext.JinjaExpr || t.Kind == sqltext.JinjaTag:
			end = jinjaEnd(src, t.Start)
		case t.Kind == sqltext.String && src[t.Start] == '\'' && strings.Contains(t.Text(src), "{"):
			end = stringEnd(src, t.Start)
		}
		j := i
		for end > t.End && j+1 < len(code) && code[j+1].End <= end {
			j++
		}
		if end <= t.End || code[j].End != end {
			out = append(out, t)
			continue
		}
		out = append(out, sqltext.Token{Kind: t.Kind, Start: t.Start, End: end})
		if t.Kind == sqltext.String {
			edits = append(edits, sqltext.Edit{Start: t.Start, End: end, Text: requote(src[t.Start:end])})
		}
		i = j
	}
	return out, edits
}

// stringEnd returns where a SQL literal that starts at a quote ends when
// Jinja inside it is read as Jinja; -1 when it does not end.
func stringEnd(src string, start int) int {
	i := start + 1
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "{{") || strings.HasPrefix(src[i:], "{%"):
			i = jinjaEnd(src, i)
			if i < 0 {
				return -1
			}
		case strings.HasPrefix(src[i:], "''"):
			i += 2
		case src[i] == '\'':
			return i + 1
		default:
			i++
		}
	}
	return -1
}

// jinjaEnd returns the end of the Jinja expression or tag at i as Jinja
// reads it: the closing delimiter outside Jinja's own brackets and string
// literals; -1 when it does not close before the next Jinja opens.
func jinjaEnd(src string, i int) int {
	closer := "}}"
	if src[i+1] == '%' {
		closer = "%}"
	}
	depth := 0
	for j := i + 2; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\'' || c == '"':
			k := j + 1
			for k < len(src) && src[k] != c {
				if src[k] == '\\' {
					k++
				}
				k++
			}
			j = k
		case depth == 0 && strings.HasPrefix(src[j:], closer):
			return j + 2
		case strings.HasPrefix(src[j:], "{{") || strings.HasPrefix(src[j:], "{%"):
			// Jinja does not nest: brackets left open run into the next
			// tag, and the lexer's end stands.
			return -1
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		}
	}
	return -1
}

// requote doubles the quotes inside the Jinja of a literal, leaving the
// literal's own doubled quotes as they are.
func requote(lit string) string {
	var b strings.Builder
	b.WriteByte('\'')
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); {
		if strings.HasPrefix(body[i:], "{{") || strings.HasPrefix(body[i:], "{%") {
			end := jinjaEnd(body, i)
			if end < 0 {
				end = len(body)
			}
			b.WriteString(strings.ReplaceAll(body[i:end], "'", "''"))
			i = end
			continue
		}
		b.WriteByte(body[i])
		i++
	}
	b.WriteByte('\'')
	return b.String()
}

// render returns, for the reading the block edits leave, the edits of the
// Jinja expressions it keeps and the model configuration they set.
func (tp *jinjaTemplate) render(blocks []sqltext.Edit, bs *blockSet) ([]sqltext.Edit, *Model) {
	hidden := spanUnion(blocks)
	vis := make([]sqltext.Token, 0, len(tp.code))
	var out []sqltext.Edit
	var model *Model
	snapshots := bs.spans("snapshot")
	h := 0
	for _, t := range tp.code {
		for h < len(hidden) && hidden[h].End <= t.Start {
			h++
		}
		if h < len(hidden) && hidden[h].Start <= t.Start {
			continue
		}
		if isConfig(tp.src, t) {
			model = readConfig(model, jinjaInner(t.Text(tp.src)), t.Start, inSpans(snapshots, t))
			out = append(out, sqltext.Edit{Start: t.Start, End: t.End, Text: " "})
			continue
		}
		vis = append(vis, t)
	}
	r := newReading(tp, vis)
	for k, t := range vis {
		if t.Kind == sqltext.JinjaExpr {
			out = append(out, sqltext.Edit{Start: t.Start, End: t.End, Text: r.shape(k)})
		}
	}
	return out, model
}

// spanUnion merges edit spans into sorted, disjoint spans.
func spanUnion(edits []sqltext.Edit) []sqltext.Edit {
	spans := append([]sqltext.Edit(nil), edits...)
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	var out []sqltext.Edit
	for _, e := range spans {
		if n := len(out); n > 0 && e.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, e.End)
			continue
		}
		out = append(out, sqltext.Edit{Start: e.Start, End: e.End})
	}
	return out
}

func thisName(opts Options) string {
	if opts.ModelName != "" {
		return quoteIfNeeded(opts.ModelName)
	}
	return "__this__"
}

func resolve(opts Options, kind string, args []string) string {
	if opts.Resolve != nil {
		if name := opts.Resolve(kind, args); name != "" {
			return name
		}
	}
	if kind == "source" {
		return quoteIfNeeded(args[0]) + "." + quoteIfNeeded(args[1])
	}
	return quoteIfNeeded(args[len(args)-1])
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func quoteIfNeeded(name string) string {
	if plainIdent.MatchString(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func unquote(s string) string { return s[1 : len(s)-1] }

// name renders the expressions whose text bflint knows: the model itself,
// a ref() or source() relation, and an identifier the adapter quotes.
func (tp *jinjaTemplate) name(inner string) (string, bool) {
	switch {
	case inner == "this":
		return thisName(tp.opts), true
	case quoteCall.MatchString(inner):
		return quoteIdent(unquote(quoteCall.FindStringSubmatch(inner)[1])), true
	}
	if m := refCall.FindStringSubmatch(inner); m != nil {
		args := []string{unquote(m[1])}
		if m[2] != "" {
			args = append(args, unquote(m[2]))
		}
		return resolve(tp.opts, "ref", args), true
	}
	if m := sourceCall.FindStringSubmatch(inner); m != nil {
		return resolve(tp.opts, "source", []string{unquote(m[1]), unquote(m[2])}), true
	}
	return "", false
}

// relations returns the relations a macro call is given, resolved: a
// macro handed a ref() most likely reads it.
func (tp *jinjaTemplate) relations(inner string) []string {
	var out []string
	for _, m := range relCall.FindAllStringSubmatch(inner, -1) {
		args := []string{unquote(m[2])}
		if m[3] != "" {
			args = append(args, unquote(m[3]))
		}
		if m[1] == "source" && len(args) != 2 {
			continue
		}
		out = append(out, resolve(tp.opts, m[1], args))
	}
	return out
}

// splitJinja splits Jinja text at sep outside brackets and string literals.
func splitJinja(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" || len(out) > 0 {
		out = append(out, rest)
	}
	return out
}

// jinjaArgs returns the arguments of a Jinja call name(...): the text
// between the call's own brackets, split at the top-level commas.
func jinjaArgs(inner string) []string {
	m := callHead.FindStringIndex(inner)
	if m == nil {
		return nil
	}
	depth := 0
	for i := m[1] - 1; i < len(inner); i++ {
		switch inner[i] {
		case '\'', '"':
			c := inner[i]
			for i++; i < len(inner) && inner[i] != c; i++ {
				if inner[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return splitJinja(inner[m[1]:i], ',')
			}
		}
	}
	return nil
}

// jinjaString returns the value of a Jinja string literal.
func jinjaString(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1], true
	}
	return "", false
}

// jinjaStrings reads a string, or a list or tuple of strings.
func jinjaStrings(v string) []string {
	v = strings.TrimSpace(v)
	if s, ok := jinjaString(v); ok {
		return []string{s}
	}
	if len(v) < 2 || !(v[0] == '[' && v[len(v)-1] == ']' || v[0] == '(' && v[len(v)-1] == ')') {
		return nil
	}
	var out []string
	for _, item := range splitJinja(v[1:len(v)-1], ',') {
		if s, ok := jinjaString(item); ok {
			out = append(out, s)
		}
	}
	return out
}

// readConfig adds one config() call to what earlier calls set: dbt merges
// them, later keys winning. Keys come as keyword arguments or in a dict
// passed positionally.
func readConfig(m *Model, inner string, offset int, snapshot bool) *Model {
	if m == nil {
		m = &Model{Offset: offset}
	}
	set := func(key, value string) {
		switch key {
		case "materialized":
			m.Materialized, _ = jinjaString(value)
		case "incremental_strategy":
			m.IncrementalStrategy, _ = jinjaString(value)
		case "unique_key":
			m.UniqueKey = jinjaStrings(value)
		}
	}
	for _, arg := range jinjaArgs(inner) {
		if kv := jinjaKwarg.FindStringSubmatch(arg); kv != nil {
			set(kv[1], kv[2])
			continue
		}
		if len(arg) < 2 || arg[0] != '{' || arg[len(arg)-1] != '}' {
			continue
		}
		for _, pair := range splitJinja(arg[1:len(arg)-1], ',') {
			if kv := splitJinja(pair, ':'); len(kv) == 2 {
				if key, ok := jinjaString(kv[0]); ok {
					set(key, kv[1])
				}
			}
		}
	}
	if snapshot && m.Materialized == "" {
		m.Materialized = "snapshot"
	}
	return m
}

// macroKind is what a known macro expands to, whatever surrounds it.
type macroKind int

const (
	unknownMacro    macroKind = iota
	columnList                // select-list items: star, pivot
	queryMacro                // a whole query: union_relations, deduplicate, ...
	expressionMacro           // one value
	nowMacro                  // the current time, which rules look for (BF102)
	todayMacro
	groupByMacro // a GROUP BY clause
)

// knownMacros are the macros of dbt and its common packages whose output
// has a fixed shape, by name without the package.
var knownMacros = map[string]macroKind{
	"star": columnList, "pivot": columnList,
	"union_relations": queryMacro, "deduplicate": queryMacro, "unpivot": queryMacro, "date_spine": queryMacro,
	"generate_surrogate_key": expressionMacro, "surrogate_key": expressionMacro, "safe_cast": expressionMacro,
	"dateadd": expressionMacro, "datediff": expressionMacro, "date_trunc": expressionMacro, "last_day": expressionMacro,
	"hash": expressionMacro, "concat": expressionMacro, "split_part": expressionMacro, "safe_divide": expressionMacro,
	"safe_add": expressionMacro, "safe_subtract": expressionMacro, "cast_bool_to_text": expressionMacro,
	"string_literal": expressionMacro, "any_value": expressionMacro, "bool_or": expressionMacro, "listagg": expressionMacro,
	"current_timestamp": nowMacro, "current_timestamp_backcompat": nowMacro, "current_timestamp_in_utc_backcompat": nowMacro,
	"dbt_date.now": nowMacro, "dbt_date.today": todayMacro,
	"group_by": groupByMacro,
}

func macroOf(inner string) (name string, kind macroKind) {
	m := callHead.FindStringSubmatch(inner)
	if m == nil {
		return "", unknownMacro
	}
	name = m[1]
	if k, ok := knownMacros[name]; ok {
		return name, k
	}
	for _, pkg := range []string{"dbt_utils.", "dbt."} {
		if short, ok := strings.CutPrefix(name, pkg); ok {
			if k, ok := knownMacros[short]; ok {
				return short, k
			}
		}
	}
	if strings.HasPrefix(name, "type_") || strings.HasPrefix(name, "dbt.type_") {
		return name, expressionMacro
	}
	return name, unknownMacro
}

// jinjaReading is the SQL code one variant keeps, with what the shape of a
// placeholder depends on: its neighbours, the brackets around it and the
// clause it stands in.
type jinjaReading struct {
	tp    *jinjaTemplate
	vis   []sqltext.Token
	match []int // the bracket that closes or opens this one, -1 if none
	piece []int // the statement each token is in
	// lead is set on the Jinja expressions a statement starts with.
	lead    []bool
	clauses map[int]string
}

func newReading(tp *jinjaTemplate, vis []sqltext.Token) *jinjaReading {
	r := &jinjaReading{tp: tp, vis: vis, match: make([]int, len(vis)), piece: make([]int, len(vis)), lead: make([]bool, len(vis)), clauses: map[int]string{}}
	var open []int
	p := 0
	for k, t := range vis {
		r.match[k] = -1
		for p < len(tp.pieces) && tp.pieces[p].end <= t.Start {
			p++
		}
		r.piece[k] = p
		if t.Kind == sqltext.JinjaExpr {
			prev := r.prev(k)
			r.lead[k] = prev < 0 || r.lead[prev]
		}
		switch {
		case r.punct(k, '(') || r.punct(k, '['):
			open = append(open, k)
		case (r.punct(k, ')') || r.punct(k, ']')) && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			r.match[o], r.match[k] = k, o
		}
	}
	return r
}

func (r *jinjaReading) word(k int) string {
	if k < 0 || k >= len(r.vis) || r.vis[k].Kind != sqltext.Word {
		return ""
	}
	return strings.ToUpper(r.vis[k].Text(r.tp.src))
}

func (r *jinjaReading) punct(k int, c byte) bool {
	return k >= 0 && k < len(r.vis) && r.vis[k].Kind == sqltext.Punct && r.tp.src[r.vis[k].Start] == c
}

// prev and next return the neighbouring code token in the same statement,
// -1 at its start or end.
func (r *jinjaReading) prev(k int) int {
	if k > 0 && r.piece[k-1] == r.piece[k] {
		return k - 1
	}
	return -1
}

func (r *jinjaReading) next(k int) int {
	if k+1 < len(r.vis) && r.piece[k+1] == r.piece[k] && !r.punct(k+1, ';') {
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
		if j < 0 || r.piece[j] != r.piece[k] {
			break
		}
		if r.punct(j, ',') {
			if w, ok := r.clauses[j]; ok {
				word = w
				break
			}
			commas = append(commas, j)
			continue
		}
		if (r.punct(j, ')') || r.punct(j, ']')) && r.match[j] >= 0 {
			j = r.match[j]
			continue
		}
		if r.punct(j, '(') || r.punct(j, '[') {
			word = "("
			break
		}
		if w := r.word(j); listClauses[w] {
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
	switch r.vis[k].Kind {
	case sqltext.QuotedIdent, sqltext.Backtick, sqltext.Number, sqltext.String, sqltext.JinjaExpr:
		return true
	case sqltext.Word:
		return !operandWanted[r.word(k)]
	}
	return r.punct(k, ')') || r.punct(k, ']')
}

// queryStart reports whether a placeholder after prev starts a query: at
// the start of a statement, or in brackets that hold a query.
func (r *jinjaReading) queryStart(prev int) bool {
	if prev < 0 {
		return true
	}
	if !r.punct(prev, '(') {
		return false
	}
	before := r.prev(prev)
	if before < 0 || r.punct(before, '(') {
		return true
	}
	if r.punct(before, ',') {
		c := r.clause(before)
		return readRelationWords[c] || c == "ON"
	}
	return queryOpeners[r.word(before)]
}

// shape returns the text that replaces the Jinja expression at k.
func (r *jinjaReading) shape(k int) string {
	t := r.vis[k]
	src := r.tp.src
	inner := jinjaInner(t.Text(src))
	glued := sqltext.WordBefore(src, t.Start) || (t.End < len(src) && sqltext.IsWordPart(src[t.End]))
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
			if kv := jinjaKwarg.FindStringSubmatch(arg); kv != nil && kv[1] == "datepart" {
				if s, ok := jinjaString(kv[2]); ok && plainIdent.MatchString(s) {
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
	pw, nw := r.word(prev), r.word(next)
	comma := ""
	if r.punct(prev, ',') {
		comma = r.clause(prev)
	}
	if prev < 0 {
		// What follows the macros a statement starts with decides what
		// they write.
		for next >= 0 && r.vis[next].Kind == sqltext.JinjaExpr {
			next = r.next(next)
		}
		nw = r.word(next)
	}
	switch {
	case r.queryStart(prev):
		switch {
		case next < 0 || r.punct(next, ')'):
			return pad(query)
		case r.punct(next, ','):
			return pad("WITH " + cteShape(query))
		case nw == "FROM":
			return " SELECT * "
		case preambleFollowers[nw] || r.punct(next, '('):
			return " "
		}
		return pad(query)
	case pw == "INTERVAL":
		return " '" + placeholder + "' "
	case pw == "WITH" || pw == "RECURSIVE" || comma == "WITH":
		if nw == "AS" || r.punct(next, '(') {
			return pad(placeholder) // the name of a CTE
		}
		return pad(cteShape(query))
	case pw == "FROM" && r.word(r.prev(prev)) == "DELETE", writeRelationWords[pw]:
		return pad(placeholder)
	case readRelationWords[pw] || readRelationWords[comma] || comma == "ON":
		if (kind == queryMacro || len(reads) > 0) && !r.punct(next, '.') {
			return pad("(" + query + ")")
		}
		return pad(placeholder)
	}
	switch kind {
	case nowMacro:
		return " current_timestamp "
	case todayMacro:
		return " current_date "
	case groupByMacro:
		return pad(groupByShape(inner))
	}
	selectItem := comma == "SELECT" || pw == "SELECT" || ((pw == "DISTINCT" || pw == "ALL") && r.word(r.prev(prev)) == "SELECT")
	listEnd := next < 0 || r.punct(next, ',') || r.punct(next, ')') || nw == "FROM" || nw == "INTO" ||
		nw == "UNION" || nw == "INTERSECT" || nw == "EXCEPT" || nw == "MINUS"
	switch {
	case selectItem && listEnd && kind != expressionMacro:
		// A macro in a select list may write any number of columns: a
		// star claims no column list a rule could find one missing from.
		return " * "
	case prev >= 0 && r.operandEnded(prev) && (next < 0 || r.punct(next, ',') || r.punct(next, ')') || tailFollowers[nw]):
		return " "
	}
	return pad(placeholder)
}

func cteShape(query string) string { return cteName + " AS (" + query + ")" }

// groupByShape writes what dbt_utils.group_by(n) writes: GROUP BY 1, ..., n.
// A count past any real select list is not believed, so a template cannot
// make the text grow without bound.
func groupByShape(inner string) string {
	n := 1
	if args := jinjaArgs(inner); len(args) > 0 {
		v := args[0]
		if kv := jinjaKwarg.FindStringSubmatch(v); kv != nil {
			v = kv[2]
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

// block is a {% if %} ... {% endif %} (or for, set, macro ...) with the
// tags that open, divide and close it.
type block struct {
	kind        string          // if, for, set, macro, call, snapshot, ...
	tags        []sqltext.Token // opening, elif/else, closing tag
	incremental bool            // an if on is_incremental()
	negated     bool            // {% if not is_incremental() %}
	// known is the value of an if's test when bflint knows it: a loop's
	// body is kept once, so loop.first and loop.last hold. -1 otherwise.
	known    int
	dropBody bool // a call block whose body runs apart from the model's SQL
}

type blockSet struct {
	src    string
	blocks []*block
	loose  []sqltext.Token // tags that open and close nothing ({% do %}, single {% set %})
}

// closers lists the Jinja tags that open a block and the tag that ends it.
var closers = map[string]string{
	"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall",
	"snapshot": "endsnapshot", "materialization": "endmaterialization",
	"filter": "endfilter", "raw": "endraw", "test": "endtest", "docs": "enddocs",
}

// loopTests are the tests of loop position with their value when the loop
// body is read once.
var loopTests = map[string]int{
	"loop.first": 1, "loop.last": 1, "not loop.first": 0, "not loop.last": 0,
	"loop.index == 1": 1, "loop.index0 == 0": 1, "loop.index > 1": 0, "loop.index0 > 0": 0,
	"loop.index != 1": 0, "loop.index0 != 0": 0,
}

func parseBlocks(src string, toks []sqltext.Token) (*blockSet, bool, []sqltext.Problem) {
	bs := &blockSet{src: src}
	var stack []*block
	var problems []sqltext.Problem
	hasIncremental := false
	for _, t := range toks {
		if t.Kind != sqltext.JinjaTag {
			continue
		}
		text := t.Text(src)
		m := tagWord.FindStringSubmatch(text)
		if m == nil {
			bs.loose = append(bs.loose, t)
			continue
		}
		word := m[1]
		inner := jinjaInner(text)
		switch {
		case word == "set" && !strings.Contains(inner, "="):
			stack = append(stack, &block{kind: "set", tags: []sqltext.Token{t}, known: -1})
		case closers[word] != "":
			b := &block{kind: word, tags: []sqltext.Token{t}, known: -1}
			if word == "if" {
				if im := incremental.FindStringSubmatch(inner); im != nil {
					b.incremental, b.negated = true, im[1] != ""
					hasIncremental = true
				} else if v, ok := loopTests[strings.Join(strings.Fields(strings.TrimPrefix(inner, "if")), " ")]; ok {
					b.known = v
				}
			}
			stack = append(stack, b)
		case word == "elif" || word == "else":
			if len(stack) == 0 || (stack[len(stack)-1].kind != "if" && stack[len(stack)-1].kind != "for") {
				problems = append(problems, sqltext.Problem{Offset: t.Start, Msg: fmt.Sprintf("Jinja {%% %s %%} outside any {%% if %%}", word)})
				bs.loose = append(bs.loose, t)
				continue
			}
			top := stack[len(stack)-1]
			top.tags = append(top.tags, t)
		case strings.HasPrefix(word, "end"):
			open := strings.TrimPrefix(word, "end")
			if len(stack) == 0 || stack[len(stack)-1].kind != open {
				problems = append(problems, sqltext.Problem{Offset: t.Start, Msg: fmt.Sprintf("Jinja {%% %s %%} closes no {%% %s %%}", word, open)})
				bs.loose = append(bs.loose, t)
				continue
			}
			top := stack[len(stack)-1]
			top.tags = append(top.tags, t)
			stack = stack[:len(stack)-1]
			bs.blocks = append(bs.blocks, top)
		default:
			bs.loose = append(bs.loose, t)
		}
	}
	for _, b := range stack {
		problems = append(problems, sqltext.Problem{Offset: b.tags[0].Start, Msg: fmt.Sprintf("Jinja {%% %s %%} is never closed with {%% end%s %%}", b.kind, b.kind)})
		bs.loose = append(bs.loose, b.tags...)
	}
	return bs, hasIncremental, problems
}

// nonSQLBlocks are the blocks whose body is never SQL of the model.
var nonSQLBlocks = wordSet("macro", "set", "test", "docs", "materialization", "raw")

// settleCalls decides what each {% call %} block's body is. The body of
// call statement(...) or set_sql_header(...) is a query dbt runs apart
// from the model, so it is left out when the model has SQL of its own;
// a call block that is all the statement holds is that statement.
func (bs *blockSet) settleCalls(tp *jinjaTemplate) {
	var never []sqltext.Edit
	for _, b := range bs.blocks {
		if nonSQLBlocks[b.kind] {
			never = append(never, sqltext.Edit{Start: b.tags[0].Start, End: b.tags[len(b.tags)-1].End})
		}
	}
	never = spanUnion(never)
	for _, b := range bs.blocks {
		if b.kind != "call" {
			continue
		}
		open, close := b.tags[0], b.tags[len(b.tags)-1]
		from, to := open.Start, close.End
		p := sort.Search(len(tp.pieces), func(i int) bool { return tp.pieces[i].end > open.Start })
		if p < len(tp.pieces) {
			from = min(from, tp.pieces[p].start)
		}
		if p = sort.Search(len(tp.pieces), func(i int) bool { return tp.pieces[i].end >= close.End }); p < len(tp.pieces) {
			to = max(to, tp.pieces[p].end)
		}
		for i := sort.Search(len(tp.code), func(i int) bool { return tp.code[i].Start >= from }); i < len(tp.code) && tp.code[i].End <= to; i++ {
			t := tp.code[i]
			if (t.Start >= open.Start && t.End <= close.End) || t.Kind == sqltext.JinjaTag ||
				(t.Kind == sqltext.Punct && tp.src[t.Start] == ';') || isConfig(tp.src, t) || inSpans(never, t) {
				continue
			}
			b.dropBody = true
			break
		}
	}
}

func isConfig(src string, t sqltext.Token) bool {
	if t.Kind != sqltext.JinjaExpr {
		return false
	}
	m := callHead.FindStringSubmatch(jinjaInner(t.Text(src)))
	return m != nil && m[1] == "config"
}

func inSpans(spans []sqltext.Edit, t sqltext.Token) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > t.Start })
	return i < len(spans) && spans[i].Start <= t.Start
}

// spans returns the bodies of the blocks of a kind, sorted and disjoint.
func (bs *blockSet) spans(kind string) []sqltext.Edit {
	var out []sqltext.Edit
	for _, b := range bs.blocks {
		if b.kind == kind {
			out = append(out, sqltext.Edit{Start: b.tags[0].End, End: b.tags[len(b.tags)-1].Start})
		}
	}
	return spanUnion(out)
}

// edits blanks every tag and the text of the branches this reading drops:
// for an is_incremental() test the branch that matches incremental; for a
// test of the loop's position the branch it selects; for other ifs the
// first branch (a template's main path); for macro and set blocks their
// whole body, which is not SQL of this statement. Loops keep their body
// once and drop their {% else %}, which runs only for an empty sequence.
func (bs *blockSet) edits(incremental bool) []sqltext.Edit {
	var out []sqltext.Edit
	for _, t := range bs.loose {
		out = append(out, sqltext.Edit{Start: t.Start, End: t.End, Text: " "})
	}
	for _, b := range bs.blocks {
		first, last := b.tags[0], b.tags[len(b.tags)-1]
		switch {
		case b.kind == "if":
			keep := 0 // the first branch
			if (b.incremental && incremental == b.negated) || b.known == 0 {
				keep = 1 // the else branch, when there is one
			}
			for i := 0; i+1 < len(b.tags); i++ {
				if i == keep {
					out = append(out, sqltext.Edit{Start: b.tags[i].Start, End: b.tags[i].End, Text: " "})
				} else {
					out = append(out, sqltext.Edit{Start: b.tags[i].Start, End: b.tags[i+1].Start, Text: " "})
				}
			}
			out = append(out, sqltext.Edit{Start: last.Start, End: last.End, Text: " "})
		case b.kind == "for" && len(b.tags) > 2:
			out = append(out, sqltext.Edit{Start: first.Start, End: first.End, Text: " "}, sqltext.Edit{Start: b.tags[1].Start, End: last.End, Text: " "})
		case nonSQLBlocks[b.kind] || b.dropBody:
			out = append(out, sqltext.Edit{Start: first.Start, End: last.End, Text: " "})
		default:
			for _, t := range b.tags {
				out = append(out, sqltext.Edit{Start: t.Start, End: t.End, Text: " "})
			}
		}
	}
	return out
}

// Package jinja reads the dbt templating of a model as the edits that
// turn it into SQL the parser reads: config() is recorded and removed,
// ref(), source() and this become relation names, macros become
// placeholders shaped for where they stand, and block tags are resolved,
// one variant per branch of {% if is_incremental() %}.
package jinja

import (
	"regexp"
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Model is what a dbt model's {{ config(...) }} says about how it writes.
type Model struct {
	Offset              int // where the config() call stands
	Materialized        string
	IncrementalStrategy string
	UniqueKey           []string
}

// Options say how to render a model.
type Options struct {
	// ModelName is the dbt model the file defines; {{ this }} becomes it.
	ModelName string
	// Resolve maps a dbt ref ("ref", [pkg,] name) or source ("source",
	// source, table) to a relation name; nil keeps a readable name built
	// from the arguments.
	Resolve func(kind string, args []string) string
	// Macros are the project's own macros (ReadMacros), by name; nil when
	// they were not read. Expand reads a call to one as the macro's SQL.
	Macros map[string]Macro
	// Vars are the project's vars (dbt_project.yml), which var() reads in
	// a macro's SQL.
	Vars map[string]Value
	// AppendsUnlessFiltered is set for a model whose config makes each run
	// insert its rows again unless its incremental filter leaves out those
	// already loaded (incremental, append or no unique_key): Expand then
	// reads a macro that decides the filter whatever its size.
	AppendsUnlessFiltered bool
	// Memo, when set, keeps IncrementalFilter's renderings of macro calls
	// for the other models of the project (see Memo).
	Memo *Memo
}

// Variant is one reading of a Jinja template: which branches of
// {% if is_incremental() %} it keeps ("incremental", "full", or "" when
// the template has no such branch), as edits over the original text.
type Variant struct {
	Name  string
	Edits []sqltext.Edit
}

// placeholder stands where Jinja produced text bflint cannot know: an
// identifier is valid SQL wherever a relation, a column or an expression
// is expected.
const placeholder = "__jinja__"

// cteName names the common table expression that stands for a macro
// writing some: a complete one keeps a following ", name AS (...)" or
// SELECT valid.
const cteName = "__jinja_cte__"

// Unknown reports whether a name, or a part of one, is text Jinja produces
// that bflint cannot know: a placeholder, or a template left inside
// quotes (`{{ dataset }}.table`).
func Unknown(name string) bool {
	return strings.HasPrefix(name, placeholder[:len(placeholder)-2]) || strings.Contains(name, "{{")
}

// Contains reports whether the tokens hold any Jinja: an expression, a
// tag or a comment.
func Contains(toks []sqltext.Token) bool {
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
	incremental = regexp.MustCompile(`^if\s+(not\s+)?is_incremental\(\s*\)\s*$`)
)

// IncrementalTest reports whether the inner text of a block tag is the
// test {% if is_incremental() %}, and whether it is negated (if not ...).
func IncrementalTest(tag string) (negated, ok bool) {
	m := incremental.FindStringSubmatch(tag)
	return m != nil && m[1] != "", m != nil
}

// Calls and keyword arguments are read on every Jinja expression of every
// model and macro; the scanners below do what the regular expressions
// ^([A-Za-z_][\w.]*)\s*\( and ^(\w+)\s*=([^=].*)$ would, without their
// cost in allocations.

// callHead reads the head of a call, a dotted name and its opening
// parenthesis, at the start of inner: the name and the offset past "(".
func callHead(inner string) (name string, end int, ok bool) {
	if inner == "" || !(inner[0] == '_' || inner[0]|0x20 >= 'a' && inner[0]|0x20 <= 'z') {
		return "", 0, false
	}
	i := 1
	for i < len(inner) && (isWordByte(inner[i]) || inner[i] == '.') {
		i++
	}
	j := i
	for j < len(inner) && isRESpace(inner[j]) {
		j++
	}
	if j == len(inner) || inner[j] != '(' {
		return "", 0, false
	}
	return inner[:i], j + 1, true
}

// kwarg splits a keyword argument, name=value (name==value is a
// comparison, a positional argument); value keeps its spacing.
func kwarg(arg string) (name, value string, ok bool) {
	i := 0
	for i < len(arg) && isWordByte(arg[i]) {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	j := i
	for j < len(arg) && isRESpace(arg[j]) {
		j++
	}
	if j+1 >= len(arg) || arg[j] != '=' || arg[j+1] == '=' {
		return "", "", false
	}
	return arg[:i], arg[j+1:], true
}

// setAssignment splits the inside of {% set name = value %}, as
// ^([A-Za-z_]\w*)\s*=\s*(.+)$ would: a value of spaces alone keeps its
// last one.
func setAssignment(text string) (name, value string, ok bool) {
	if text == "" || !(text[0] == '_' || text[0]|0x20 >= 'a' && text[0]|0x20 <= 'z') {
		return "", "", false
	}
	i := 1
	for i < len(text) && isWordByte(text[i]) {
		i++
	}
	j := i
	for j < len(text) && isRESpace(text[j]) {
		j++
	}
	if j == len(text) || text[j] != '=' || j+1 == len(text) {
		return "", "", false
	}
	rest := text[j+1:]
	value = strings.TrimLeft(rest, " \t\n\f\r")
	if value == "" {
		value = rest[len(rest)-1:]
	}
	return text[:i], value, true
}

// isRESpace is the whitespace of \s in a regular expression.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

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
	pieces []sqltext.Piece
	// incrementalMacro is the last project macro called that tests
	// is_incremental() and could not be read as SQL.
	incrementalMacro string
	notes            []sqltext.Token // {# ... #} comments, which dbt drops
	opaqueBodies     []OpaqueBody
}

// OpaqueBody is a statement that is a macro call and nothing else, whose
// SQL was not read (not a project macro, or one Expand could not read):
// the placeholder standing for it parses, but nothing of the statement
// was read.
type OpaqueBody struct {
	Offset int // of the call
	Macro  string
}

// opaque records the macro call at offset as a statement's whole body;
// each variant renders it again.
func (tp *jinjaTemplate) opaque(offset int, macro string) {
	for _, o := range tp.opaqueBodies {
		if o.Offset == offset {
			return
		}
	}
	tp.opaqueBodies = append(tp.opaqueBodies, OpaqueBody{Offset: offset, Macro: macro})
}

// Reading is a dbt model's templating as Render reads it.
type Reading struct {
	// Variants are the readings of the template, one per branch of
	// {% if is_incremental() %}.
	Variants []Variant
	// Model is its config(), nil without one.
	Model *Model
	// IncrementalMacro names the last project macro called that tests
	// is_incremental() and was not read as SQL (Expand): what an
	// incremental run filters is then unknown.
	IncrementalMacro string
	Problems         []sqltext.Problem
	// OpaqueBodies are the statements that are an unread macro call alone.
	OpaqueBodies []OpaqueBody
}

// Render reads the templating of a dbt model: config() is recorded and
// removed, ref(), source() and this become relation names, macros become
// placeholders shaped for where they stand, and block tags are resolved.
// A template with {% if is_incremental() %} yields two variants, one per
// branch, so both the incremental and the full-refresh SQL are analysed.
// Calls to project macros are read as their SQL before (Expand).
func Render(src string, toks, code []sqltext.Token, opts Options) Reading {
	tp := &jinjaTemplate{src: src, opts: opts, pieces: sqltext.Split(src, toks)}
	var lent bool
	tp.code, tp.quoted, lent = jinjaTokens(src, code)
	for _, t := range toks {
		if t.Kind == sqltext.JinjaNote {
			tp.notes = append(tp.notes, t)
		}
	}
	bs, hasIncremental, problems := parseBlocks(src, tp.code)
	bs.settleCalls(tp)
	readings := []Variant{{}}
	if hasIncremental {
		readings = []Variant{{Name: "incremental"}, {Name: "full"}}
	}
	// The configuration is the last reading's: dbt reads config() when it
	// parses the project, where is_incremental() is false.
	var model *Model
	for i := range readings {
		v := &readings[i]
		blocks := bs.edits(v.Name == "incremental")
		var exprs []sqltext.Edit
		exprs, model = tp.render(blocks, bs)
		v.Edits = append(append(append(v.Edits, tp.quoted...), blocks...), exprs...)
	}
	if lent {
		sqltext.TokenBuffers.Put(tp.code)
	}
	return Reading{Variants: readings, Model: model, IncrementalMacro: tp.incrementalMacro, Problems: problems, OpaqueBodies: tp.opaqueBodies}
}

// jinjaTokens corrects two splits of the lexer, which reads Jinja by its
// delimiters alone. Jinja ends {{ ... }} at a closing "}}" only outside
// its own brackets, so {{ config({"a": {"b": 1}}) }} is one expression.
// And dbt renders Jinja before the SQL is read, so the quotes of
// '{{ var('start') }}' never end the literal. Each becomes one token again;
// for such a literal, an edit doubles the inner quotes so the parser reads
// one literal whose value is the template text.
//
// Most files need neither correction: their code is returned as it is,
// with lent false. Otherwise the corrected tokens are in a lent buffer.
func jinjaTokens(src string, code []sqltext.Token) (out []sqltext.Token, edits []sqltext.Edit, lent bool) {
	for i := 0; i < len(code); i++ {
		t := code[i]
		end := -1
		switch {
		case t.Kind == sqltext.JinjaExpr || t.Kind == sqltext.JinjaTag:
			end = jinjaEnd(src, int(t.Start))
		case t.Kind == sqltext.String && src[t.Start] == '\'' && strings.Contains(t.Text(src), "{"):
			end = stringEnd(src, int(t.Start))
		}
		j := i
		for end > int(t.End) && j+1 < len(code) && int(code[j+1].End) <= end {
			j++
		}
		if end < int(t.End) || int(code[j].End) != end || end == int(t.End) && t.Kind != sqltext.String {
			if lent {
				out = append(out, t)
			}
			continue
		}
		if !lent && j > i {
			out, lent = append(sqltext.TokenBuffers.Get(len(code))[:0], code[:i]...), true
		}
		if lent {
			out = append(out, sqltext.Token{Kind: t.Kind, Start: t.Start, End: int32(end)})
		}
		if t.Kind == sqltext.String {
			edits = append(edits, sqltext.Edit{Start: int(t.Start), End: end, Text: requote(src[t.Start:end])})
		}
		i = j
	}
	if !lent {
		return code, edits, false
	}
	return out, edits, true
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
	var out []sqltext.Edit
	var model *Model
	snapshots := bs.spans("snapshot")
	h := 0
	vis, lent := keptCode(tp.code, func(t sqltext.Token) bool {
		for h < len(hidden) && hidden[h].End <= int(t.Start) {
			h++
		}
		if h < len(hidden) && hidden[h].Start <= int(t.Start) {
			return true
		}
		if isConfig(tp.src, t) {
			model = readConfig(model, jinjaInner(t.Text(tp.src)), int(t.Start), inSpans(snapshots, t))
			out = append(out, sqltext.Edit{Start: int(t.Start), End: int(t.End), Text: " "})
			return true
		}
		return false
	})
	out = append(out, tp.droppedNotes(hidden)...)
	r := newReading(tp, vis, lent)
	defer r.release()
	for k, t := range vis {
		if t.Kind != sqltext.JinjaExpr {
			continue
		}
		inner := jinjaInner(t.Text(tp.src))
		out = append(out, sqltext.Edit{Start: int(t.Start), End: int(t.End), Text: r.shape(k)})
		if name, _ := macroOf(inner); TestsIncremental(tp.opts.Macros, name) {
			tp.incrementalMacro = name
		}
	}
	return out, model
}

// keptCode returns code less the tokens drop reports, which it asks of
// each token in order. It is a run of code while those left out are before
// or after it (a model's leading config() call), and a lent copy (lent)
// once a token is kept after one left out.
func keptCode(code []sqltext.Token, drop func(sqltext.Token) bool) (kept []sqltext.Token, lent bool) {
	from, n, gap := 0, 0, false
	for i, t := range code {
		switch left := drop(t); {
		case lent:
			if !left {
				kept = append(kept, t)
			}
		case left:
			if n == 0 {
				from = i + 1
			} else {
				gap = true
			}
		case gap:
			kept, lent = append(append(sqltext.TokenBuffers.Get(len(code))[:0], code[from:from+n]...), t), true
		default:
			n++
		}
	}
	if !lent {
		kept = code[from : from+n]
	}
	return kept, lent
}

// droppedNotes blanks the Jinja comments outside the hidden spans: dbt
// renders them as nothing, and left in the text they would stop the SQL
// parser. A comment inside a Jinja expression goes with the expression.
func (tp *jinjaTemplate) droppedNotes(hidden []sqltext.Edit) []sqltext.Edit {
	var out []sqltext.Edit
	c, h := 0, 0
	for _, n := range tp.notes {
		for c < len(tp.code) && tp.code[c].End <= n.Start {
			c++
		}
		for h < len(hidden) && hidden[h].End <= int(n.Start) {
			h++
		}
		inCode := c < len(tp.code) && tp.code[c].Start <= n.Start
		inHidden := h < len(hidden) && hidden[h].Start <= int(n.Start)
		if !inCode && !inHidden {
			out = append(out, sqltext.Edit{Start: int(n.Start), End: int(n.End), Text: " "})
		}
	}
	return out
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

// resolve renders a ref() or source() as the relation name the parser
// reads: an adapter records relation_name in its own quotes (BigQuery's
// backquotes), which SQL text would not hold.
func resolve(opts Options, kind string, args []string) string {
	if opts.Resolve != nil {
		if name := opts.Resolve(kind, args); name != "" {
			return sqlname.Parse(name).SQL()
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
		return sqltext.QuoteIdent(unquote(quoteCall.FindStringSubmatch(inner)[1])), true
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
	_, open, ok := callHead(inner)
	if !ok {
		return nil
	}
	depth := 0
	for i := open - 1; i < len(inner); i++ {
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
				return splitJinja(inner[open:i], ',')
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
		if key, value, ok := kwarg(arg); ok {
			set(key, value)
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
	name, _, ok := callHead(inner)
	if !ok {
		return "", unknownMacro
	}
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

var (
	jinjaRegion = regexp.MustCompile(`(?s)\{\{.*?\}\}|\{%.*?%\}`)
	varCall     = regexp.MustCompile(`\bvar\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]`)
)

// VarNames lists the dbt vars a template reads with var('name'), each
// once, in order of first use: the names a command's --vars can set for
// this model.
func VarNames(src []byte) []string {
	var names []string
	seen := map[string]bool{}
	for _, region := range jinjaRegion.FindAll(src, -1) {
		for _, m := range varCall.FindAllSubmatch(region, -1) {
			if name := string(m[1]); !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names
}

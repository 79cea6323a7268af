package jinja

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Project macros read as SQL. A model that hands its query, a WITH query
// or a clause to one of its project's macros is read with the macro's SQL
// in place of the call, the call's literal arguments bound, so that what
// the macro writes (its incremental filter, its joins) is judged as if the
// model wrote it. Only what the template fixes is expanded: a macro whose
// SQL depends on a query's result, or that cannot be read, stays a
// placeholder, and the model says so (Expansion.Unread).

// maxExpansionDepth bounds macros calling macros; maxExpansion the text a
// call may expand to, so that a template cannot grow without bound.
const (
	maxExpansionDepth = 8
	maxLoop           = 200
	// smallExpansion bounds the SQL a call is expanded to: an import of
	// WITH queries, a predicate, a model's query. A macro that unions a
	// relation per chain of a list writes many times its model's text,
	// which a run over thousands of models would parse for little: past
	// the bound the call stays a placeholder, and the model says so
	// (Expansion.Unread). maxExpansion bounds it where the macro decides
	// the incremental filter of a model whose re-run safety rests on it
	// (Options.AppendsUnlessFiltered).
	smallExpansion = 2 << 10
	maxExpansion   = 64 << 10
)

// Expansion is what expanding a model's macro calls found.
type Expansion struct {
	// Expanded names the project macros whose SQL was read in place of a
	// call; Unread those whose SQL could not be, with why.
	Expanded []string
	Unread   map[string]string
}

// expander renders a project macro's body for one reading of a model.
type expander struct {
	opts        Options
	incremental bool
	depth       int
	// unread says why the last expansion failed.
	unread string
	// testedIncremental is set once an is_incremental() test was read,
	// which makes the other reading differ.
	testedIncremental bool
	// keepIncremental writes {% if is_incremental() %} blocks out with
	// both branches, for the model's reading to choose.
	keepIncremental bool
	// filterOnly leaves out what cannot hold the incremental filter: the
	// model's own {{ }} outside its is_incremental() blocks, unless they
	// call a macro that tests is_incremental() (IncrementalFilter reads
	// only the blocks). inBlock counts the blocks being rendered.
	filterOnly bool
	inBlock    int
	// setNames are the names the template's {% set %} tags bind: an
	// expression using one may write a block set's is_incremental() test.
	setNames map[string]bool
	// limit bounds the text written; 0 is maxExpansion. tooLarge is set
	// when the expansion passed it.
	limit    int
	tooLarge bool
	// memo, when set, keeps the renderings of macro calls (see Memo).
	memo *Memo
}

// dataDependent are calls whose result bflint cannot know: SQL a macro
// builds from them depends on what the warehouse holds.
var dataDependent = regexp.MustCompile(`\b(run_query|load_result|adapter\.get_columns_in_relation|adapter\.get_relation|dbt_utils\.get_column_values|dbt_utils\.get_query_results_as_dict|get_columns_in_relation|statement)\s*\(`)

// call expands the project macro called by the Jinja expression inner;
// ok is false, with x.unread set, when it cannot be read as SQL.
func (x *expander) call(inner string) (string, bool) {
	c, ok := parseCallExpr(inner)
	if !ok {
		return "", false
	}
	return x.expand(c, x.env())
}

// expand renders the project macro c calls, its arguments evaluated in
// env, the caller's bindings.
func (x *expander) expand(c CallSite, env Env) (string, bool) {
	m, ok := x.opts.Macros[c.Name]
	if !ok || m.Body == "" {
		return "", false
	}
	if x.depth >= maxExpansionDepth {
		x.unread = "macros call one another more than " + strconv.Itoa(maxExpansionDepth) + " deep"
		return "", false
	}
	if m.queries {
		x.unread = "its SQL depends on a query it runs"
		return "", false
	}
	args, kwargs := c.eval(env)
	return x.apply(m, args, kwargs, env)
}

// eval evaluates the call's arguments in env, the caller's bindings.
func (c CallSite) eval(env Env) (args []Value, kwargs map[string]Value) {
	args = make([]Value, len(c.Args))
	for i, a := range c.Args {
		args[i] = Eval(a, env)
	}
	kwargs = map[string]Value{}
	for k, a := range c.Kwargs {
		kwargs[k] = Eval(a, env)
	}
	return args, kwargs
}

// apply renders a macro's body with its parameters bound to args.
func (x *expander) apply(m Macro, args []Value, kwargs map[string]Value, env Env) (string, bool) {
	out, ret, ok := x.applyValue(m, args, kwargs, env, x.filterOnly && x.inBlock == 0)
	if !ok {
		return "", false
	}
	if ret != nil {
		s, ok := ret.Render()
		if !ok {
			x.unread = "it returns a value bflint cannot read"
			return "", false
		}
		return s, true
	}
	if limit := cmp.Or(x.limit, maxExpansion); len(out) > limit {
		x.unread = fmt.Sprintf("its SQL is larger than the %d KiB bflint expands", limit>>10)
		x.tooLarge = true
		return "", false
	}
	return out, true
}

// bind binds a macro's parameters to a call's arguments: positional,
// then named, then each parameter's default (evaluated in env), else None.
func (m Macro) bind(args []Value, kwargs map[string]Value, env Env) map[string]Value {
	bound := map[string]Value{}
	for i, p := range m.Params {
		switch v, named := kwargs[p.Name]; {
		case i < len(args):
			bound[p.Name] = args[i]
		case named:
			bound[p.Name] = v
		case p.Default != "":
			bound[p.Name] = Eval(p.Default, env)
		default:
			bound[p.Name] = Value{Kind: None}
		}
	}
	return bound
}

// applyValue renders a macro's body with its parameters bound, returning
// its text, or the value it returns. With filterOnly the body is read as
// IncrementalFilter reads a model's: only what may hold the filter is
// rendered, which is all that is kept of text written outside the
// model's is_incremental() blocks. A value is always rendered whole.
func (x *expander) applyValue(m Macro, args []Value, kwargs map[string]Value, env Env, filterOnly bool) (string, *Value, bool) {
	bound := m.bind(args, kwargs, env)
	var key memoKey
	if x.memo != nil {
		key = memoKey{template: bodyKey(m), incremental: x.incremental, keep: x.keepIncremental, filterOnly: filterOnly,
			limit: x.limit, depth: x.depth, this: env.This, args: argsKey(m, bound)}
		if r, ok := x.memo.get(key); ok {
			x.took(r)
			return r.out, r.ret, r.ok
		}
	}
	sub := &expander{opts: x.opts, incremental: x.incremental, keepIncremental: x.keepIncremental, limit: x.limit, depth: x.depth + 1,
		filterOnly: filterOnly, memo: x.memo}
	if filterOnly {
		for name, v := range bound {
			if carriesTags(v) {
				// A block set the caller passed in may hold the filter.
				sub.bound(name)
			}
		}
	}
	out, ret, ok := sub.render(m.template, sub.withCalls(Env{Names: bound, Resolve: env.Resolve, This: env.This, Vars: env.Vars}))
	r := rendering{out: out, ret: ret, ok: ok, testedIncremental: sub.testedIncremental, unread: sub.unread, tooLarge: sub.tooLarge}
	if x.memo != nil {
		x.memo.put(key, r)
	}
	x.took(r)
	return out, ret, ok
}

// took passes on to x what rendering a macro call tells its caller.
func (x *expander) took(r rendering) {
	x.testedIncremental = x.testedIncremental || r.testedIncremental
	if !r.ok {
		x.unread, x.tooLarge = r.unread, r.tooLarge
	}
}

// withCalls lets expressions in env call the project's macros for the
// values they return ({% for chain in chains() %}).
func (x *expander) withCalls(env Env) Env {
	env.Call = func(name string, args []Value, kwargs map[string]Value) Value {
		m, ok := x.opts.Macros[name]
		if !ok || m.queries || x.depth >= maxExpansionDepth {
			return Value{}
		}
		out, ret, ok := x.applyValue(m, args, kwargs, env, false)
		switch {
		case !ok:
			return Value{}
		case ret != nil:
			return *ret
		}
		return Value{Kind: String, Text: strings.TrimSpace(out)}
	}
	return env
}

func (x *expander) env() Env {
	return x.withCalls(Env{Resolve: x.opts.Resolve, This: thisName(x.opts), Vars: x.opts.Vars})
}

// parseCallExpr reads an expression that is one call, name(args...).
func parseCallExpr(inner string) (CallSite, bool) {
	name, _, ok := callHead(inner)
	if !ok {
		return CallSite{}, false
	}
	args := jinjaArgs(inner)
	end := strings.LastIndexByte(inner, ')')
	if args == nil && !strings.HasSuffix(strings.TrimSpace(inner), "()") || end != len(strings.TrimSpace(inner))-1 {
		return CallSite{}, false
	}
	c := CallSite{Name: name, Kwargs: map[string]string{}}
	for _, a := range args {
		if key, value, ok := kwarg(a); ok {
			c.Kwargs[key] = strings.TrimSpace(value)
		} else if a != "" {
			c.Args = append(c.Args, a)
		}
	}
	return c, true
}

var (
	returnCall = regexp.MustCompile(`(?s)^return\s*\((.*)\)$`)
	forHead    = regexp.MustCompile(`(?s)^([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+in\s+(.+)$`)
)

// returnValue matches return(...), nil for anything else.
func returnValue(expr string) []string {
	if !strings.HasPrefix(expr, "return") {
		return nil
	}
	return returnCall.FindStringSubmatch(expr)
}

// render writes nodes as text; ret is set when the template returns a
// value (return(...)), which is then its result. ok is false when the
// text cannot be known; out is then "", as it is when ret is set.
func (x *expander) render(nodes []*tnode, env Env) (out string, ret *Value, ok bool) {
	var b bytes.Buffer
	if ret, ok = x.renderTo(&b, nodes, env); !ok || ret != nil {
		return "", ret, ok
	}
	return b.String(), nil, true
}

// renderTo is render writing into b: the blocks, arms and loops of a
// template write where their parent does, not into text of their own
// that the parent copies. What it writes is left in b when it fails or
// returns a value; render drops it then.
func (x *expander) renderTo(b *bytes.Buffer, nodes []*tnode, env Env) (ret *Value, ok bool) {
	start := b.Len()
	for _, n := range nodes {
		switch n.kind {
		case "text":
			if x.filterOnly && x.inBlock == 0 {
				continue // text outside the is_incremental() blocks is not kept
			}
			b.WriteString(n.text)
		case "expr":
			if m := returnValue(n.text); m != nil {
				v := Eval(m[1], env)
				return &v, true
			}
			if x.filterOnly && x.inBlock == 0 && !callsIncremental(n.text, x.opts.Macros, x.setNames) {
				continue
			}
			b.WriteString(x.expr(n.text, env))
		case "do":
			if m := returnValue(n.text); m != nil {
				v := Eval(m[1], env)
				return &v, true
			}
		case "set":
			if name, value, ok := setAssignment(n.text); ok {
				env = env.with(name, Eval(value, env))
				x.bound(name)
			}
		case "setblock":
			// A block set is a value the filter may use: rendered whole.
			x.inBlock++
			s, _, ok := x.render(n.body, env)
			x.inBlock--
			if !ok {
				return nil, false
			}
			env = env.with(strings.TrimSpace(n.text), Value{Kind: String, Text: s})
			x.bound(strings.TrimSpace(n.text))
		case "if":
			if x.keepIncremental && incremental.MatchString("if "+strings.TrimSpace(n.arms[0].test)) {
				if !x.incrementalBlock(b, n, env) {
					return nil, false
				}
				continue
			}
			if a, ok := incrementalArm(n); ok && x.keepIncremental {
				// {% elif is_incremental() %} after tests of a var a
				// normal run does not set (dev_dates): its filter.
				if !x.incrementalBlock(b, &tnode{kind: "if", arms: []arm{a}}, env) {
					return nil, false
				}
				continue
			}
			for _, a := range n.arms {
				if a.test != "" && !x.truth(a.test, env) {
					continue
				}
				if r, ok := x.renderTo(b, a.body, env); !ok || r != nil {
					return r, ok
				}
				break
			}
		case "for":
			if r, ok := x.loop(b, n, env); !ok || r != nil {
				return r, ok
			}
		case "opaque":
			x.unread = "it writes SQL in a {% " + n.text + " %} block"
			return nil, false
		}
		if limit := cmp.Or(x.limit, maxExpansion); b.Len()-start > limit {
			x.unread = fmt.Sprintf("its SQL is larger than the %d KiB bflint expands", limit>>10)
			x.tooLarge = true
			return nil, false
		}
	}
	return nil, true
}

// loop unrolls a for loop over a known list, into b; over anything else
// its body is read once, with the loop variable unknown, as a model's
// loops are.
func (x *expander) loop(b *bytes.Buffer, n *tnode, env Env) (*Value, bool) {
	m := forHead.FindStringSubmatch(n.arms[0].test)
	if m == nil {
		return nil, true
	}
	seq := Eval(m[3], env)
	if seq.Kind != List || len(seq.Items) > maxLoop {
		return x.renderTo(b, n.arms[0].body, env.with(m[1], Value{}).with("loop", Value{}))
	}
	start := b.Len()
	for i, it := range seq.Items {
		inner := env.with("loop.first", Value{Kind: Bool, Bool: i == 0}).with("loop.last", Value{Kind: Bool, Bool: i == len(seq.Items)-1}).
			with("loop.index", Value{Kind: Number, Text: strconv.Itoa(i + 1)}).with("loop.index0", Value{Kind: Number, Text: strconv.Itoa(i)})
		if m[2] != "" {
			if it.Kind != List || len(it.Items) != 2 {
				// Items that are not pairs: the loop writes nothing.
				b.Truncate(start)
				return nil, true
			}
			inner = inner.with(m[1], it.Items[0]).with(m[2], it.Items[1])
		} else {
			inner = inner.with(m[1], it)
		}
		if r, ok := x.renderTo(b, n.arms[0].body, inner); !ok || r != nil {
			return r, ok
		}
	}
	return nil, true
}

// expr writes a Jinja expression: a known value's text, a nested project
// macro's SQL, the current time for dbt's clock macros; anything else
// stays Jinja, for the model's reading to shape a placeholder for it.
func (x *expander) expr(inner string, env Env) string {
	if x.filterOnly && x.inBlock == 0 {
		// The call's text matters only for the filter it may hold: read
		// as such, not rendered whole as a value first.
		if c, ok := parseCallExpr(inner); ok {
			if _, project := x.opts.Macros[c.Name]; project {
				if s, ok := x.expand(c, env); ok {
					return s
				}
			}
		}
	}
	v := Eval(inner, env)
	if s, ok := v.Render(); ok && v.Kind != None {
		return s
	}
	if c, ok := parseCallExpr(inner); ok {
		if _, project := x.opts.Macros[c.Name]; project {
			if s, ok := x.expand(c, env); ok {
				return s
			}
		}
		switch _, kind := macroOf(inner); {
		case kind == nowMacro:
			return "current_timestamp"
		case kind == todayMacro:
			return "current_date"
		case silentCalls[c.Name]:
			return ""
		}
	}
	return "{{ " + inner + " }}"
}

// silentCalls write nothing into the SQL: they stop the compile, or log.
var silentCalls = map[string]bool{"exceptions.raise_compiler_error": true, "exceptions.warn": true, "log": true, "print": true}

// truth evaluates an if's test: is_incremental() by the reading, a test
// of bound values or loop state by their values, bigquery-etl's is_init()
// and loop tests of a loop read once as a model's are; any other test
// holds, so that the first branch is read, as in a model.
func (x *expander) truth(test string, env Env) bool {
	test = strings.TrimSpace(test)
	if strings.Contains(test, "is_incremental") {
		if m := incremental.FindStringSubmatch("if " + test); m != nil {
			x.testedIncremental = true
			return x.incremental != (m[1] != "")
		}
	}
	if env.MarkVars {
		// A test of a var() is decided by its default, as in a run that
		// sets none (dev_dates toggles): only values written out are
		// told apart as var() values.
		env.MarkVars = false
	}
	if v, known := x.value(test, env); known {
		return v
	}
	if v, ok := knownTests[strings.Join(strings.Fields(test), " ")]; ok {
		return v == 1
	}
	return true
}

// value evaluates a test whose parts bflint knows: and, or and not of
// a bound value's truth, x is none, x is string, x == 'lit', x != 'lit',
// x in [...], execute. known is false when some part is not known and
// the others do not decide.
func (x *expander) value(test string, env Env) (v, known bool) {
	test = strings.TrimSpace(test)
	for _, op := range []string{" or ", " and "} {
		parts := splitWord(test, op)
		if len(parts) < 2 {
			continue
		}
		allKnown := true
		for _, part := range parts {
			pv, pk := x.value(part, env)
			switch {
			case pk && pv == (op == " or "):
				return pv, true // true or ..., false and ...
			case !pk:
				allKnown = false
			}
		}
		return op == " and ", allKnown
	}
	if rest, ok := strings.CutPrefix(test, "not "); ok {
		v, known := x.value(rest, env)
		return !v, known
	}
	if test == "execute" {
		return true, true
	}
	for _, op := range []string{" is not none", " is none", " is not string", " is string"} {
		name, ok := strings.CutSuffix(test, op)
		if !ok {
			continue
		}
		v := Eval(name, env)
		if !v.Known() {
			return false, false
		}
		negated := strings.Contains(op, " not ")
		if strings.HasSuffix(op, "none") {
			return (v.Kind == None) != negated, true
		}
		return (v.Kind == String) != negated, true
	}
	for _, op := range []string{" not in ", " in "} {
		if l, r, ok := strings.Cut(test, op); ok {
			item, list := Eval(l, env), Eval(r, env)
			is, iok := item.Render()
			if !iok || list.Kind != List {
				return false, false
			}
			found := false
			for _, it := range list.Items {
				if s, ok := it.Render(); ok && s == is {
					found = true
				}
			}
			return found != (op == " not in "), true
		}
	}
	for _, op := range []string{"==", "!="} {
		if l, r, ok := strings.Cut(test, op); ok {
			a, b := Eval(l, env), Eval(r, env)
			as, aok := a.Render()
			bs, bok := b.Render()
			if !a.Known() || !b.Known() || !aok || !bok {
				return false, false
			}
			return (as == bs) == (op == "=="), true
		}
	}
	val := Eval(test, env)
	if val.Kind == Var && len(val.Items) == 1 {
		val = val.Items[0]
	}
	switch val.Kind {
	case Bool:
		return val.Bool, true
	case None:
		return false, true
	case String:
		return val.Text != "", true
	case List:
		return len(val.Items) > 0, true
	}
	return false, false
}

// splitWord splits a test at a word operator outside brackets and
// strings.
func splitWord(s, op string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], op):
			out = append(out, s[start:i])
			start = i + len(op)
			i += len(op) - 1
		}
	}
	return append(out, s[start:])
}

func (e Env) with(name string, v Value) Env {
	// Prepended, not copied: a loop binds its names for every item, and
	// copying the bindings each time grew with all that was bound.
	e.bound = &binding{name: name, value: v, next: e.bound}
	return e
}

// binding is a name bound on top of an Env's Names, and those bound
// before it.
type binding struct {
	name  string
	value Value
	next  *binding
}

// lookup finds a bound name, the latest binding first.
func (e Env) lookup(name string) (Value, bool) {
	for b := e.bound; b != nil; b = b.next {
		if b.name == name {
			return b.value, true
		}
	}
	v, ok := e.Names[name]
	return v, ok
}

// dbtBuiltins are dbt's own functions, which a project may override (a
// ref that routes to another environment) but which mean what dbt means
// by them: Render reads them as such.
var dbtBuiltins = map[string]bool{"ref": true, "source": true, "config": true, "var": true, "env_var": true,
	"is_incremental": true, "this": true, "return": true}

// Expand reads the calls of a model to its project's macros as the
// macros' SQL: each {{ macro(...) }} whose macro opts.Macros holds is
// replaced by the macro's body rendered with the call's arguments bound,
// when the macro decides the model's incremental filter or its SQL is
// small (smallExpansion).
// What the body leaves to the run stays Jinja for Render: its
// {% if is_incremental() %} blocks (the model then has both readings),
// and any expression bflint cannot evaluate. The result maps back to src
// (a position inside an expansion is the call's); it is nil when no call
// was expanded.
func Expand(src string, opts Options) (string, *sqltext.OffsetMap, Expansion) {
	var exp Expansion
	if len(opts.Macros) == 0 || !strings.Contains(src, "{{") {
		return src, nil, exp
	}
	var edits []sqltext.Edit
	regions := Regions(src)
	sqlInMacros := onlyJinja(src, regions)
	for _, r := range regions {
		if r.Tag {
			continue
		}
		c, ok := parseCallExpr(r.Inner)
		if !ok || dbtBuiltins[c.Name] {
			continue
		}
		if _, project := opts.Macros[c.Name]; !project {
			continue
		}
		limit, filter := smallExpansion, opts.AppendsUnlessFiltered && TestsIncremental(opts.Macros, c.Name)
		if filter || sqlInMacros {
			limit = maxExpansion
		}
		// A macro that writes all of a model whose re-run safety does not
		// rest on its filter is read as its full refresh: what its
		// incremental runs select is read apart (IncrementalFilter), and
		// a second reading of the whole would double what is parsed.
		x := &expander{opts: opts, keepIncremental: filter || !sqlInMacros, limit: limit}
		text, ok := x.call(r.Inner)
		if !ok && x.tooLarge && limit == smallExpansion {
			// Left as a placeholder by choice: nothing rests on it.
			continue
		}
		if !ok {
			if exp.Unread == nil {
				exp.Unread = map[string]string{}
			}
			exp.Unread[c.Name] = cmp.Or(x.unread, "bflint cannot read its SQL")
			continue
		}
		if !slices.Contains(exp.Expanded, c.Name) {
			exp.Expanded = append(exp.Expanded, c.Name)
		}
		edits = append(edits, sqltext.Edit{Start: r.Start, End: r.End, Text: " " + text + " "})
	}
	if len(edits) == 0 {
		return src, nil, exp
	}
	out, m := sqltext.Rewrite(src, 0, len(src), edits)
	return out, m, exp
}

// Text renders a small template, such as a var's value in
// dbt_project.yml ("{{ env_var('UNIT', 'day') }}"), with env; ok is false
// when some of it cannot be known.
func Text(template string, env Env) (string, bool) {
	if !strings.Contains(template, "{{") && !strings.Contains(template, "{%") {
		return template, true
	}
	x := &expander{opts: Options{Resolve: env.Resolve, Vars: env.Vars}}
	out, ret, ok := x.render(parseTemplate(template), env)
	if ret != nil {
		out, ok = ret.Render()
	}
	if !ok || strings.Contains(out, "{{") {
		return "", false
	}
	return out, true
}

// TemplateRelations lists the ref() and source() calls a template makes
// when dbt renders it: loops over literal lists unrolled, the project
// macros it calls read with their arguments bound, both readings of
// is_incremental() (a model reads what either branch names). A call
// whose arguments stay unknown is listed with Known false, at its offset
// in src when it stands there. A macro whose SQL cannot be read gives the
// calls written in its body.
func TemplateRelations(src string, opts Options) []RelationCall {
	var out []RelationCall
	seen := map[string]bool{}
	add := func(rc RelationCall) {
		key := rc.Kind + "(" + strings.Join(rc.Args, ",") + ")"
		if !rc.Known {
			key = rc.Text
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, rc)
		}
	}
	record := func(kind string, args []string) string {
		add(RelationCall{Kind: kind, Args: args, Known: true, Text: kind + "('" + strings.Join(args, "', '") + "')"})
		return "__jinja_relation__"
	}
	// unread lists what stays Jinja in a rendering: calls whose arguments
	// are not known, and calls of macros whose SQL could not be read, of
	// which the calls their bodies write out are what bflint can know.
	unread := func(text string) {
		regions := Regions(text)
		for _, rc := range RelationCalls(text, regions, Env{}) {
			if !rc.Known {
				rc.Offset = max(strings.Index(src, rc.Text), 0)
				add(rc)
			}
		}
		for _, c := range Calls(text, regions) {
			if m, project := opts.Macros[c.Name]; project {
				for _, rc := range RelationCalls(m.Body, m.bodyRegions(), Env{Vars: opts.Vars}) {
					if !rc.Known {
						rc.Offset = max(strings.Index(src, c.Name), 0)
					}
					add(rc)
				}
			}
		}
	}
	opts.Resolve = record
	tmpl := parseTemplate(src)
	for _, incremental := range []bool{false, true} {
		// Only the calls matter here, not the size of what is written.
		x := &expander{opts: opts, incremental: incremental, limit: 4 << 20}
		text, _, ok := x.render(tmpl, x.withCalls(Env{Resolve: record, Vars: opts.Vars, This: "__this__"}))
		if ok && strings.Contains(text, "{") {
			unread(text)
		}
		if !x.testedIncremental {
			break // the other reading is the same
		}
	}
	return out
}

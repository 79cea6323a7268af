package jinja

import (
	"strconv"
	"strings"
	"sync"
)

// The values of Jinja expressions bflint can know without running Jinja:
// literals, the arguments a macro call binds, ref() and source(). Anything
// else (a filter, a method call, a comparison, run_query) is unknown, and
// whoever asked says what it could not read instead of guessing.

// Kind is the kind of a Value.
type Kind int

const (
	UnknownValue Kind = iota
	String
	Number
	Bool
	None
	List
	Dict
	// Relation is a ref(), source() or this, rendered as SQL (Text).
	Relation
	// Clock is a value computed from the time of the run: run_started_at,
	// modules.datetime, and anything derived from them.
	Clock
	// Var is a var() value read where Env.MarkVars asks it be told apart:
	// what a command's --vars sets.
	Var
)

// ClockText and VarText are how Clock and Var values render: SQL that
// still parses, and that the range reading recognises.
const (
	ClockText = "current_timestamp"
	VarText   = "__var__"
)

// Value is a Jinja value as far as bflint knows it.
type Value struct {
	Kind Kind
	// Text is a string's or number's value, or a relation's SQL name.
	Text  string
	Bool  bool
	Items []Value
	// Keys and Items hold a dict's entries in the order written.
	Keys []string
}

// Known reports whether the value was read.
func (v Value) Known() bool { return v.Kind != UnknownValue }

// Render is the text Jinja writes for the value in {{ }}: a string as it
// is, a relation's name; false and ok=false for values with no fixed text.
func (v Value) Render() (string, bool) {
	switch v.Kind {
	case String, Number, Relation:
		return v.Text, true
	case Bool:
		if v.Bool {
			return "True", true
		}
		return "False", true
	case None:
		return "None", true
	case Clock:
		return ClockText, true
	case Var:
		return VarText, true
	}
	return "", false
}

// Strings returns a string, or a list of strings, as a list; nil for
// other values.
func (v Value) Strings() []string {
	switch v.Kind {
	case String:
		return []string{v.Text}
	case List:
		var out []string
		for _, it := range v.Items {
			if it.Kind != String {
				return nil
			}
			out = append(out, it.Text)
		}
		return out
	}
	return nil
}

// Field returns a dict's entry, UnknownValue when it has none.
func (v Value) Field(key string) Value {
	for i, k := range v.Keys {
		if k == key {
			return v.Items[i]
		}
	}
	return Value{}
}

// Env is what names mean while an expression is evaluated.
type Env struct {
	// Names are the bound names: a macro's parameters.
	Names map[string]Value
	// bound are the names bound since (with): set tags, loop variables.
	bound *binding
	// Resolve renders ref() and source() (see Options.Resolve).
	Resolve func(kind string, args []string) string
	// This renders {{ this }}; "" leaves it unknown.
	This string
	// Vars are the project's vars (dbt_project.yml), which var() reads.
	Vars map[string]Value
	// Call evaluates a call to any other function, a project macro that
	// returns a value; nil leaves such calls unknown.
	Call func(name string, args []Value, kwargs map[string]Value) Value
	// MarkVars makes var() a Var value, whatever it is set to.
	MarkVars bool
}

// Eval evaluates a Jinja expression in env.
func Eval(expr string, env Env) Value {
	buf := exprTokenBuffers.Get().(*[]exprToken)
	toks := appendExprTokens((*buf)[:0], expr)
	defer func() {
		*buf = toks[:0]
		exprTokenBuffers.Put(buf)
	}()
	if readsClock(toks) {
		return Value{Kind: Clock}
	}
	p := &exprParser{toks: toks, env: env}
	v := p.concat()
	if p.i != len(p.toks) {
		return Value{}
	}
	return v
}

// readsClock reports whether an expression reads the time of the run:
// whatever it computes from it (a date 31 days back, a formatted day) is
// the clock's.
func readsClock(toks []exprToken) bool {
	for _, t := range toks {
		if t.kind == 'w' && (t.text == "run_started_at" || strings.HasPrefix(t.text, "run_started_at.") || strings.HasPrefix(t.text, "modules.datetime")) {
			return true
		}
	}
	return false
}

// exprTokenBuffers hold the tokens of the expressions being evaluated:
// Eval runs for every expression of every model and macro, and the
// tokens are not kept past it (values hold strings, not tokens).
var exprTokenBuffers = sync.Pool{New: func() any { return new([]exprToken) }}

type exprToken struct {
	kind byte // 's' string, 'n' number, 'w' word, 'p' punctuation
	text string
}

// appendExprTokens splits a Jinja expression onto out; an unknown
// character becomes a token no rule accepts, so the whole expression is
// unknown.
func appendExprTokens(out []exprToken, s string) []exprToken {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end >= 0 && strings.IndexByte(s[i+1:i+1+end], '\\') < 0 {
				// No escapes, as nearly always: the literal is its text.
				out = append(out, exprToken{'s', s[i+1 : i+1+end]})
				i += end + 2
				continue
			}
			j := i + 1
			var b strings.Builder
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return append(out, exprToken{'?', s[i:]})
			}
			out = append(out, exprToken{'s', b.String()})
			i = j + 1
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && (len(out) == 0 || out[len(out)-1].kind == 'p'):
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			out = append(out, exprToken{'n', s[i:j]})
			i = j
		case c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] == '.' || s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, exprToken{'w', s[i:j]})
			i = j
		case strings.IndexByte("()[]{},:~+=", c) >= 0:
			out = append(out, exprToken{'p', string(c)})
			i++
		default:
			return append(out, exprToken{'?', string(c)})
		}
	}
	return out
}

type exprParser struct {
	toks []exprToken
	i    int
	env  Env
	// trailingComma is set when the list just read ended in a comma,
	// which makes (x,) a tuple and not a parenthesised x.
	trailingComma bool
}

func (p *exprParser) peek(text string) bool {
	return p.i < len(p.toks) && p.toks[p.i].kind == 'p' && p.toks[p.i].text == text
}

// concat reads a ~ b (and a + b of strings), the only operators whose
// result bflint needs: names built from a prefix and an argument.
func (p *exprParser) concat() Value {
	v := p.primary()
	for p.peek("~") || p.peek("+") {
		p.i++
		w := p.primary()
		vs, ok1 := v.Render()
		ws, ok2 := w.Render()
		if !ok1 || !ok2 || v.Kind == Relation || w.Kind == Relation {
			v = Value{}
			continue
		}
		v = Value{Kind: String, Text: vs + ws}
	}
	return v
}

// primary reads an operand and the subscripts after it (pair[0]).
func (p *exprParser) primary() Value {
	v := p.operand()
	for p.peek("[") {
		p.i++
		idx := p.concat()
		if !p.peek("]") {
			return Value{}
		}
		p.i++
		n, err := strconv.Atoi(idx.Text)
		switch {
		case v.Kind == List && idx.Kind == Number && err == nil && n >= 0 && n < len(v.Items):
			v = v.Items[n]
		case v.Kind == Dict && idx.Kind == String:
			v = v.Field(idx.Text)
		default:
			v = Value{}
		}
	}
	return v
}

func (p *exprParser) operand() Value {
	if p.i >= len(p.toks) {
		return Value{}
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case 's':
		return Value{Kind: String, Text: t.text}
	case 'n':
		return Value{Kind: Number, Text: t.text}
	case 'p':
		switch t.text {
		case "[", "(":
			closer := "]"
			if t.text == "(" {
				closer = ")"
			}
			items := p.items(closer)
			if items == nil {
				return Value{}
			}
			if t.text == "(" && len(items.Items) == 1 && !p.trailingComma {
				return items.Items[0] // a parenthesised expression
			}
			return *items
		case "{":
			return p.dict()
		}
		return Value{}
	case 'w':
		switch t.text {
		case "true", "True":
			return Value{Kind: Bool, Bool: true}
		case "false", "False":
			return Value{Kind: Bool}
		case "none", "None":
			return Value{Kind: None}
		}
		if p.peek("(") {
			return p.call(t.text)
		}
		if t.text == "this" && p.env.This != "" {
			return Value{Kind: Relation, Text: p.env.This}
		}
		if v, ok := p.env.lookup(t.text); ok {
			return v
		}
		// blockchain.name reads an entry of a bound dict.
		if head, rest, dotted := strings.Cut(t.text, "."); dotted {
			if v, ok := p.env.lookup(head); ok && v.Kind == Dict {
				for _, key := range strings.Split(rest, ".") {
					if v = v.Field(key); v.Kind != Dict {
						break
					}
				}
				return v
			}
		}
		return Value{}
	}
	return Value{}
}

// items reads the elements of a list or tuple up to closer; nil when one
// is malformed.
func (p *exprParser) items(closer string) *Value {
	v := &Value{Kind: List}
	p.trailingComma = false
	for !p.peek(closer) {
		if p.i >= len(p.toks) {
			return nil
		}
		v.Items = append(v.Items, p.concat())
		p.trailingComma = false
		if p.peek(",") {
			p.i++
			p.trailingComma = true
			continue
		}
		if !p.peek(closer) {
			return nil
		}
	}
	p.i++
	return v
}

func (p *exprParser) dict() Value {
	v := Value{Kind: Dict}
	for !p.peek("}") {
		if p.i >= len(p.toks) {
			return Value{}
		}
		key := p.concat()
		if key.Kind != String || !p.peek(":") {
			return Value{}
		}
		p.i++
		v.Keys = append(v.Keys, key.Text)
		v.Items = append(v.Items, p.concat())
		if p.peek(",") {
			p.i++
		} else if !p.peek("}") {
			return Value{}
		}
	}
	p.i++
	return v
}

// call evaluates ref() and source() with known arguments; any other call
// is unknown, though its arguments are read past.
func (p *exprParser) call(name string) Value {
	p.i++ // (
	var args []Value
	kwargs := map[string]Value{}
	for !p.peek(")") {
		if p.i >= len(p.toks) {
			return Value{}
		}
		if p.i+1 < len(p.toks) && p.toks[p.i].kind == 'w' && p.toks[p.i+1].kind == 'p' && p.toks[p.i+1].text == "=" {
			key := p.toks[p.i].text
			p.i += 2 // a keyword argument (ref's v= or version=) names no relation part
			kwargs[key] = p.concat()
		} else {
			args = append(args, p.concat())
		}
		if p.peek(",") {
			p.i++
		} else if !p.peek(")") {
			return Value{}
		}
	}
	p.i++
	switch name {
	case "var":
		if len(args) == 0 || args[0].Kind != String {
			return Value{}
		}
		resolved := Value{}
		if v, ok := p.env.Vars[args[0].Text]; ok {
			resolved = v
		} else if len(args) > 1 {
			resolved = args[1]
		}
		if p.env.MarkVars {
			// What a run that sets nothing reads is kept for the tests
			// it decides ({% if dev_dates %}).
			return Value{Kind: Var, Text: args[0].Text, Items: []Value{resolved}}
		}
		return resolved
	case "env_var":
		// The environment of the run is not known; its default is what
		// a run without the variable reads, and bflint's readings must
		// not depend on the machine it runs on.
		if len(args) > 1 {
			return args[1]
		}
		return Value{}
	case "ref", "source":
		var parts []string
		for _, a := range args {
			if a.Kind != String {
				return Value{}
			}
			parts = append(parts, a.Text)
		}
		if name == "ref" && (len(parts) < 1 || len(parts) > 2) || name == "source" && len(parts) != 2 {
			return Value{}
		}
		return Value{Kind: Relation, Text: resolve(Options{Resolve: p.env.Resolve}, name, parts)}
	}
	if p.env.Call != nil {
		return p.env.Call(name, args, kwargs)
	}
	return Value{}
}

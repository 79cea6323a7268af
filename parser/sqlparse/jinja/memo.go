package jinja

import (
	"strconv"
	"sync"
)

// Memo keeps the renderings of the project macro calls IncrementalFilter
// makes. There a call's text depends on the macro and its arguments alone
// ({{ this }} and ref() are placeholders, the vars are the project's), and
// the models of a project make the same calls again and again
// (incremental_predicate('block_time') in thousands of models). One Memo
// serves one project's macros and vars; it is safe for concurrent use.
type Memo struct {
	mu    sync.Mutex
	calls map[memoKey]rendering
}

// memoKey names a call: the macro (its parsed body, read once per
// project), how the expander
// reads it, and its bound arguments.
type memoKey struct {
	template    *tnode // the body's first node; nil for an empty body
	incremental bool
	keep        bool
	filterOnly  bool
	limit       int
	depth       int
	this        string
	args        string
}

// rendering is what a call produced and what it tells its caller.
type rendering struct {
	out               string
	ret               *Value
	ok                bool
	testedIncremental bool
	unread            string
	tooLarge          bool
}

func (mm *Memo) get(k memoKey) (rendering, bool) {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	r, ok := mm.calls[k]
	return r, ok
}

func (mm *Memo) put(k memoKey, r rendering) {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if mm.calls == nil {
		mm.calls = map[memoKey]rendering{}
	}
	mm.calls[k] = r
}

// argsKey writes a macro's bound parameters, in their order, so that
// equal bindings give equal text and unequal ones differ.
func argsKey(m Macro, bound map[string]Value) string {
	var b []byte
	for _, p := range m.Params {
		b = appendValueKey(b, bound[p.Name])
	}
	return string(b)
}

func appendValueKey(b []byte, v Value) []byte {
	b = strconv.AppendInt(b, int64(v.Kind), 10)
	b = strconv.AppendQuote(append(b, ':'), v.Text)
	if v.Bool {
		b = append(b, 't')
	}
	b = append(b, '[')
	for i, it := range v.Items {
		if i < len(v.Keys) {
			b = strconv.AppendQuote(b, v.Keys[i])
		}
		b = appendValueKey(b, it)
	}
	return append(b, ']')
}

// bodyKey is what names a macro's body in a memoKey.
func bodyKey(m Macro) *tnode {
	if len(m.template) == 0 {
		return nil
	}
	return m.template[0]
}

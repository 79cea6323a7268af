package jinja

import (
	"slices"
	"sort"
	"strings"
)

// Region is a Jinja expression ({{ }}) or statement ({% %}) of a
// template; comments ({# #}) are no region.
type Region struct {
	Start, End int
	Tag        bool   // a {% %} statement
	Inner      string // the text inside the delimiters, trimmed
}

// Regions lists the Jinja of a template in order. dbt renders Jinja
// before any SQL is read, so Jinja inside a SQL comment or string counts
// too. A region that never closes ends the list.
func Regions(src string) []Region {
	var out []Region
	for i := 0; i+1 < len(src); {
		j := strings.IndexByte(src[i:], '{')
		if j < 0 || i+j+1 >= len(src) {
			break
		}
		i += j
		switch src[i+1] {
		case '#':
			end := strings.Index(src[i+2:], "#}")
			if end < 0 {
				return out
			}
			i += 2 + end + 2
		case '{', '%':
			end := jinjaEnd(src, i)
			if end < 0 {
				closer := "}}"
				if src[i+1] == '%' {
					closer = "%}"
				}
				k := strings.Index(src[i+2:], closer)
				if k < 0 {
					return out
				}
				end = i + 2 + k + 2
			}
			out = append(out, Region{Start: i, End: end, Tag: src[i+1] == '%', Inner: jinjaInner(src[i:end])})
			i = end
		default:
			i++
		}
	}
	return out
}

// CallSite is a call in a region: name(args...).
type CallSite struct {
	Name string
	// Args are the positional arguments' texts; Kwargs the keyword
	// arguments' texts by name.
	Args   []string
	Kwargs map[string]string
	// Offset is where the call's name starts in the template.
	Offset int
}

// Calls lists every call in the regions of src, nested calls included,
// in the order they start.
func Calls(src string, regions []Region) []CallSite { return CallsOf(src, regions, nil) }

// CallsOf is Calls of the names keep accepts (nil accepts every name).
// Reading a call's arguments is most of the cost, and most callers want
// a few names.
func CallsOf(src string, regions []Region, keep func(name string) bool) []CallSite {
	var out []CallSite
	for _, r := range regions {
		text := src[r.Start:r.End]
		var quote byte
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case quote != 0:
				if c == '\\' {
					i++
				} else if c == quote {
					quote = 0
				}
				continue
			case c == '\'' || c == '"':
				quote = c
				continue
			case !(c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z') || i > 0 && (isWordByte(text[i-1]) || text[i-1] == '.'):
				continue
			}
			j := i + 1
			for j < len(text) && (isWordByte(text[j]) || text[j] == '.') {
				j++
			}
			name := text[i:j]
			k := j
			for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
				k++
			}
			if k < len(text) && text[k] == '(' && (keep == nil || keep(name)) {
				out = append(out, callAt(text, i, name, r.Start))
			}
			i = j - 1
		}
	}
	return out
}

// callAt reads the call of name at offset i of a region's text.
func callAt(text string, i int, name string, regionStart int) CallSite {
	c := CallSite{Name: name, Offset: regionStart + i, Kwargs: map[string]string{}}
	for _, a := range jinjaArgs(text[i:]) {
		if key, value, ok := kwarg(a); ok {
			c.Kwargs[key] = strings.TrimSpace(value)
		} else if a != "" {
			c.Args = append(c.Args, a)
		}
	}
	return c
}

// RelationCall is a ref() or source() of a template, its arguments
// evaluated.
type RelationCall struct {
	Kind  string   // "ref" or "source"
	Args  []string // the known arguments: [package,] name, or source, table
	Known bool     // every argument was a known string
	// Partial holds each argument's value, "" where it is not known.
	Partial []string
	Offset  int
	Text    string // the call as written, for what could not be read
}

// RelationCalls lists the ref() and source() calls of src's regions, their
// arguments evaluated with the names env binds.
func RelationCalls(src string, regions []Region, env Env) []RelationCall {
	var out []RelationCall
	for _, c := range CallsOf(src, regions, isRelationCall) {
		rc := RelationCall{Kind: c.Name, Offset: c.Offset, Known: true}
		for _, a := range c.Args {
			v := Eval(a, env)
			if v.Kind != String {
				rc.Known = false
				rc.Partial = append(rc.Partial, "")
				continue
			}
			rc.Args = append(rc.Args, v.Text)
			rc.Partial = append(rc.Partial, v.Text)
		}
		n := len(rc.Args)
		if c.Name == "ref" && (n < 1 || n > 2) || c.Name == "source" && n != 2 {
			rc.Known = false
		}
		end := strings.IndexByte(src[c.Offset:], ')')
		if end < 0 {
			end = len(src) - c.Offset - 1
		}
		rc.Text = src[c.Offset : c.Offset+end+1]
		out = append(out, rc)
	}
	return out
}

// ConfigKey is a key a config() call of a template sets.
type ConfigKey struct {
	Key   string
	Value Value // UnknownValue when the value is not a literal
	// Call is where the config() call starts; At where the key is written.
	Call, At int
}

// ConfigKeys lists the keys the config() calls of src set, in the order
// written: keyword arguments, and the entries of a dict passed
// positionally. dbt merges the calls, a later key winning.
func ConfigKeys(src string, regions []Region) []ConfigKey {
	return configKeys(src, regions, Env{})
}

func configKeys(src string, regions []Region, env Env) []ConfigKey {
	var out []ConfigKey
	for _, c := range CallsOf(src, regions, isConfigCall) {
		if c.Name == "config.set" && len(c.Args) == 2 {
			// config.set('unique_key', key) in a macro sets one key.
			if key := Eval(c.Args[0], env); key.Kind == String {
				out = append(out, ConfigKey{Key: key.Text, Value: Eval(c.Args[1], env), Call: c.Offset, At: c.Offset})
			}
			continue
		}
		if c.Name != "config" {
			continue
		}
		end := regionEnd(regions, c.Offset)
		at := func(key string) int {
			if i := strings.Index(src[c.Offset:end], key); i >= 0 {
				return c.Offset + i
			}
			return c.Offset
		}
		for _, key := range sortedKwargs(src[c.Offset:end], c.Kwargs) {
			out = append(out, ConfigKey{Key: key, Value: Eval(c.Kwargs[key], env), Call: c.Offset, At: at(key)})
		}
		for _, a := range c.Args {
			d := Eval(a, env)
			if d.Kind != Dict {
				continue
			}
			for i, key := range d.Keys {
				out = append(out, ConfigKey{Key: key, Value: d.Items[i], Call: c.Offset, At: at(key)})
			}
		}
	}
	return out
}

// MacroConfigKeys lists the config keys the project macros a template
// calls set (config() and config.set() in their bodies, their parameters
// bound to the call's arguments): dbt applies them to the model that
// calls the macro. Each key is placed at the call.
func MacroConfigKeys(src string, regions []Region, macros map[string]Macro, vars map[string]Value) []ConfigKey {
	var out []ConfigKey
	setsConfig := func(name string) bool {
		m, ok := macros[name]
		return ok && !dbtBuiltins[name] && strings.Contains(m.Body, "config")
	}
	for _, c := range CallsOf(src, regions, setsConfig) {
		m := macros[c.Name]
		env := Env{Vars: vars}
		args, kwargs := c.eval(env)
		env.Names = m.bind(args, kwargs, env)
		for _, k := range configKeys(m.Body, m.bodyRegions(), env) {
			k.Call, k.At = c.Offset, c.Offset
			out = append(out, k)
		}
	}
	return out
}

func isRelationCall(name string) bool { return name == "ref" || name == "source" }

func isConfigCall(name string) bool { return name == "config" || name == "config.set" }

// regionEnd is the end of the region holding offset.
func regionEnd(regions []Region, offset int) int {
	i := sort.Search(len(regions), func(i int) bool { return regions[i].End > offset })
	if i < len(regions) {
		return regions[i].End
	}
	return offset
}

// sortedKwargs orders keyword argument names as they stand in the call.
func sortedKwargs(call string, kwargs map[string]string) []string {
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		keys = append(keys, k)
	}
	pos := func(k string) int {
		for from := 0; ; {
			i := strings.Index(call[from:], k)
			if i < 0 {
				return len(call)
			}
			i += from
			rest := strings.TrimLeft(call[i+len(k):], " \t\r\n")
			if (i == 0 || !isWordByte(call[i-1])) && strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
				return i
			}
			from = i + len(k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return pos(a) - pos(b) })
	return keys
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// tagWords splits a tag's inner text into its first word and the rest.
func tagWords(inner string) (word, rest string) {
	i := strings.IndexAny(inner, " \t\r\n")
	if i < 0 {
		return inner, ""
	}
	return inner[:i], strings.TrimSpace(inner[i:])
}

// onlyJinja reports whether the model's SQL is all written by the Jinja
// of its template: outside it stand only blanks and comments. Everything
// the model does then rests on the macros it calls.
func onlyJinja(src string, regions []Region) bool {
	at := 0
	for _, r := range regions {
		if !blankSQL(src[at:r.Start]) {
			return false
		}
		at = r.End
	}
	return blankSQL(src[at:])
}

// blankSQL reports whether s holds nothing but blanks, comments and
// semicolons.
func blankSQL(s string) bool {
	s = skipComments(s)
	for strings.HasPrefix(s, ";") {
		s = skipComments(s[1:])
	}
	return s == ""
}

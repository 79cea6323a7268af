// Package yamlx decodes YAML strictly into typed structs that keep the
// position of every key and value, so that plan and config problems point at
// the exact line and column the user wrote.
package yamlx

import (
	"fmt"
	"go/token"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/suggest"
	"go.yaml.in/yaml/v3"
)

// Problem is a position-carrying defect of the input; rules turn problems
// into diagnostics.
type Problem struct {
	Pos     token.Pos
	Message string
}

// Field records where a key and its value stand. Every decoded value and
// every section embeds it.
type Field struct {
	Key   token.Pos // the key; the document start for the root
	Value token.Pos // the value; NoPos when the key has no value
	Set   bool      // the key is present with a non-null value
}

// At is where a finding about this value points: the key when present,
// else the value.
func (f Field) At() token.Pos {
	if f.Key.IsValid() {
		return f.Key
	}
	return f.Value
}

// String is a scalar read as text.
type String struct {
	Field
	V string
}

// Int is an integer scalar.
type Int struct {
	Field
	V int
}

// Bool is a boolean scalar.
type Bool struct {
	Field
	V bool
}

// StringList is a sequence of scalars; a single scalar is a one-item list.
type StringList struct {
	Field
	Items []String
}

// Values returns the texts of the list.
func (l StringList) Values() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.V
	}
	return out
}

// StringMap is a mapping from names to scalars, such as rule severities.
type StringMap struct {
	Field
	Entries []Entry
}

// Entry is one key and value of a StringMap.
type Entry struct {
	Key   String
	Value String
}

// Unmarshaler is implemented by types that decode a scalar themselves.
type Unmarshaler interface {
	UnmarshalYAMLX(d *Decoder, path string, n *yaml.Node)
}

// maxAliasExpansion bounds the values a document's aliases add to its
// decoding, so that an alias that refers to itself many times over cannot
// expand without end. The values written out count for nothing: a long
// file is bounded by the size a file may have, not by this.
const maxAliasExpansion = 100_000

// Decoder decodes one file's nodes into structs and collects problems.
type Decoder struct {
	File *source.File
	// RootName names the top-level mapping in messages ("the plan").
	RootName string
	Problems []Problem
	// Omitted counts the problems past MaxProblems, not recorded.
	Omitted int
	// expansion counts the values reached through aliases, each time
	// one is followed: the work aliases add to the document as written.
	expansion int
	stopped   bool
}

var yamlErrLine = regexp.MustCompile(`line (\d+)(?:, column (\d+))?:\s*(.*)`)

// Parse reads f as one YAML document whose top level must be a mapping. It
// returns the mapping node (nil when the document is unusable) and the
// problems found while parsing.
func Parse(f *source.File) (root *yaml.Node, problems []Problem) {
	defer func() {
		if r := recover(); r != nil {
			root = nil
			problems = append(problems, Problem{f.Pos(0), fmt.Sprintf("YAML parser failed on this file: %v", r)})
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(f.Content, &doc); err != nil {
		return nil, []Problem{yamlError(f, err)}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, []Problem{{f.Pos(0), "file is empty: expected a YAML mapping"}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, []Problem{{f.LineCol(top.Line, top.Column), fmt.Sprintf("top level is %s: expected a YAML mapping of keys", KindName(top))}}
	}
	return top, nil
}

func yamlError(f *source.File, err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col := 1
		if m[2] != "" {
			col, _ = strconv.Atoi(m[2])
		} else {
			col = firstNonSpace(f.Line(line))
		}
		return Problem{f.LineCol(line, col), "invalid YAML: " + m[3]}
	}
	return Problem{f.Pos(0), "invalid YAML: " + msg}
}

func firstNonSpace(s string) int {
	for i, r := range s {
		if r != ' ' && r != '\t' {
			return i + 1
		}
	}
	return 1
}

func (d *Decoder) problem(n *yaml.Node, format string, args ...any) {
	if len(d.Problems) >= MaxProblems {
		d.Omitted++
		return
	}
	d.Problems = append(d.Problems, Problem{d.pos(n), fmt.Sprintf(format, args...)})
}

// MaxProblems bounds the problems a Decoder records one by one: a file of
// a million unknown keys is counted past it, not described a million
// times.
const MaxProblems = 1000

func (d *Decoder) pos(n *yaml.Node) token.Pos { return d.File.LineCol(n.Line, n.Column) }

// Item reads one item of a sequence that custom Unmarshalers decode
// themselves: aliases followed, its position, and whether the decode
// must stop (the alias budget is spent).
func (d *Decoder) Item(n *yaml.Node) (item *yaml.Node, at token.Pos, stop bool) {
	item = d.resolve(n)
	return item, d.pos(item), d.stopped
}

// Stopped reports whether the alias bound stopped the decode: what was
// decoded since lacks values the file may well hold, and is not to be
// judged.
func (d *Decoder) Stopped() bool { return d.stopped }

// Errorf records a problem at n; custom Unmarshalers use it.
func (d *Decoder) Errorf(n *yaml.Node, format string, args ...any) { d.problem(n, format, args...) }

// resolve follows aliases and counts the values they add, stopping the
// decode once they add more than maxAliasExpansion.
func (d *Decoder) resolve(n *yaml.Node) *yaml.Node {
	aliased := false
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n, aliased = n.Alias, true
	}
	if !aliased || n == nil || d.stopped {
		return n
	}
	d.expansion += countNodes(n)
	if d.expansion > maxAliasExpansion {
		d.stopped = true
		d.problem(n, "YAML aliases expand to more than %d values beyond the file's own; the rest of the file is not read", maxAliasExpansion)
	}
	return n
}

// Decode fills the struct that dst points to from mapping n. path names the
// mapping in messages ("" for the document root).
func (d *Decoder) Decode(n *yaml.Node, path string, dst any) {
	v := reflect.ValueOf(dst).Elem()
	d.decodeMapping(n, path, v)
}

type fieldInfo struct {
	index int
	enum  []string
}

func fieldsOf(t reflect.Type) (map[string]fieldInfo, []string) {
	fields := map[string]fieldInfo{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name := sf.Tag.Get("yaml")
		if name == "" || name == "-" {
			continue
		}
		var enum []string
		if e := sf.Tag.Get("enum"); e != "" {
			enum = strings.Split(e, ",")
		}
		fields[name] = fieldInfo{index: i, enum: enum}
		names = append(names, name)
	}
	return fields, names
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d *Decoder) decodeMapping(n *yaml.Node, path string, v reflect.Value) {
	fields, names := fieldsOf(v.Type())
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content) && !d.stopped; i += 2 {
		k, val := d.resolve(n.Content[i]), d.resolve(n.Content[i+1])
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			d.problem(k, "a key in %s is a %s: keys must be plain names", d.orRoot(path), KindName(k))
			continue
		}
		if key == "<<" {
			d.problem(k, "YAML merge keys (<<) are not supported in %s: write the keys out", d.orRoot(path))
			continue
		}
		if first, dup := seen[key]; dup {
			d.problem(k, "duplicate key %q in %s (first set on line %d): YAML keeps only one of them", join(path, key), d.orRoot(path), first.Line)
			continue
		}
		seen[key] = k
		fi, ok := fields[key]
		if !ok && len(d.Problems) >= MaxProblems {
			d.Omitted++
			continue
		}
		if !ok {
			msg := fmt.Sprintf("unknown key %q in %s", key, d.orRoot(path))
			if s := suggest.Closest(key, names); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; known keys: " + strings.Join(sorted(names), ", ")
			}
			d.problem(k, "%s", msg)
			continue
		}
		d.decodeValue(k, val, join(path, key), v.Field(fi.index), fi.enum)
	}
}

func (d *Decoder) orRoot(path string) string {
	if path == "" {
		if d.RootName == "" {
			return "the file"
		}
		return d.RootName
	}
	return "\"" + path + "\""
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func (d *Decoder) decodeValue(k, n *yaml.Node, path string, v reflect.Value, enum []string) {
	field := Field{Key: d.pos(k), Value: d.pos(n), Set: !isNull(n)}
	if u, ok := v.Addr().Interface().(Unmarshaler); ok {
		setField(v, field)
		if field.Set {
			u.UnmarshalYAMLX(d, path, n)
		}
		return
	}
	switch p := v.Addr().Interface().(type) {
	case *String:
		p.Field = field
		if field.Set && d.scalar(n, path, "a text value") {
			p.V = n.Value
			if enum != nil && !contains(enum, n.Value) {
				msg := fmt.Sprintf("%s: unknown value %q; expected one of %s", path, n.Value, strings.Join(enum, ", "))
				if s := suggest.Closest(n.Value, enum); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				d.problem(n, "%s", msg)
				p.Set = false
			}
		}
		return
	case *Int:
		p.Field = field
		if field.Set && d.scalar(n, path, "an integer") {
			i, err := strconv.Atoi(n.Value)
			if n.ShortTag() != "!!int" || err != nil {
				d.problem(n, "%s must be an integer, not %q", path, n.Value)
				p.Set = false
				return
			}
			p.V = i
		}
		return
	case *Bool:
		p.Field = field
		if field.Set && d.scalar(n, path, "true or false") {
			b, err := strconv.ParseBool(strings.ToLower(n.Value))
			if n.ShortTag() != "!!bool" || err != nil {
				d.problem(n, "%s must be true or false, not %q", path, n.Value)
				p.Set = false
				return
			}
			p.V = b
		}
		return
	case *StringList:
		p.Field = field
		if !field.Set {
			return
		}
		switch n.Kind {
		case yaml.ScalarNode:
			p.Items = []String{{Field: field, V: n.Value}}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				item = d.resolve(item)
				if d.stopped {
					return
				}
				if item.Kind != yaml.ScalarNode || isNull(item) {
					d.problem(item, "%s[%d] must be a text value, not %s", path, i, KindName(item))
					continue
				}
				p.Items = append(p.Items, String{Field: Field{Key: d.pos(item), Value: d.pos(item), Set: true}, V: item.Value})
			}
		default:
			d.problem(n, "%s must be a list of text values, not %s", path, KindName(n))
			p.Set = false
		}
		return
	}
	if p, ok := v.Addr().Interface().(*StringMap); ok {
		p.Field = field
		if field.Set {
			d.decodeStringMap(n, path, p)
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.Type().Elem().Kind() != reflect.Struct {
			panic("yamlx: unsupported pointer field at " + path)
		}
		if !field.Set {
			// An empty section ("rollback:" with nothing under it) is present
			// but answers nothing; keep it so rules can point at it.
			s := reflect.New(v.Type().Elem())
			setField(s.Elem(), field)
			v.Set(s)
			return
		}
		if n.Kind != yaml.MappingNode {
			d.problem(n, "%s must be a mapping of keys, not %s", path, KindName(n))
			return
		}
		s := reflect.New(v.Type().Elem())
		setField(s.Elem(), field)
		d.decodeMapping(n, path, s.Elem())
		v.Set(s)
	case reflect.Slice:
		if !field.Set {
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.problem(n, "%s must be a list, not %s", path, KindName(n))
			return
		}
		elem := v.Type().Elem()
		for i, item := range n.Content {
			item = d.resolve(item)
			if d.stopped {
				return
			}
			ipath := fmt.Sprintf("%s[%d]", path, i)
			if item.Kind != yaml.MappingNode {
				d.problem(item, "%s must be a mapping of keys, not %s", ipath, KindName(item))
				continue
			}
			s := reflect.New(elem).Elem()
			setField(s, Field{Key: d.pos(item), Value: d.pos(item), Set: true})
			d.decodeMapping(item, ipath, s)
			v.Set(reflect.Append(v, s))
		}
	default:
		panic("yamlx: unsupported field type " + v.Type().String() + " at " + path)
	}
}

// setField stores f in the embedded Field of struct value v, if it has one.
func setField(v reflect.Value, f Field) {
	if v.Kind() != reflect.Struct {
		return
	}
	if ff := v.FieldByName("Field"); ff.IsValid() && ff.Type() == reflect.TypeOf(Field{}) {
		ff.Set(reflect.ValueOf(f))
	}
}

// scalar reports whether n is a scalar, recording a problem when it is not.
func (d *Decoder) scalar(n *yaml.Node, path, want string) bool {
	if n.Kind == yaml.ScalarNode {
		return true
	}
	d.problem(n, "%s must be %s, not %s", path, want, KindName(n))
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// KindName says what a YAML node is, for messages: "a mapping", "a list",
// "the number 5".
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch n.ShortTag() {
	case "!!null":
		return "empty"
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	}
	return fmt.Sprintf("the text %q", n.Value)
}

func (d *Decoder) decodeStringMap(n *yaml.Node, path string, m *StringMap) {
	if n.Kind != yaml.MappingNode {
		d.problem(n, "%s must be a mapping of names to values, not %s", path, KindName(n))
		m.Set = false
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content) && !d.stopped; i += 2 {
		k, val := d.resolve(n.Content[i]), d.resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode || isNull(val) {
			d.problem(k, "%s: each entry must be a name and a single value", path)
			continue
		}
		if line, dup := seen[k.Value]; dup {
			d.problem(k, "duplicate key %q in %q (first set on line %d)", k.Value, path, line)
			continue
		}
		seen[k.Value] = k.Line
		m.Entries = append(m.Entries, Entry{
			Key:   String{Field: Field{Key: d.pos(k), Value: d.pos(k), Set: true}, V: k.Value},
			Value: String{Field: Field{Key: d.pos(k), Value: d.pos(val), Set: true}, V: val.Value},
		})
	}
}

// countNodes counts the values written below n, n included, without
// following aliases: what decoding it costs when no alias multiplies the
// work.
func countNodes(n *yaml.Node) int {
	count := 1
	for _, c := range n.Content {
		if c.Kind != yaml.AliasNode {
			count += countNodes(c)
		}
	}
	return count
}

// HasKnownKey says whether the mapping n has at least one key that dst's
// type decodes, which tells a document written for dst from another tool's
// YAML file.
func HasKnownKey(n *yaml.Node, dst any) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	fields, _ := fieldsOf(reflect.TypeOf(dst).Elem())
	for i := 0; i < len(n.Content); i += 2 {
		if _, ok := fields[n.Content[i].Value]; ok {
			return true
		}
	}
	return false
}

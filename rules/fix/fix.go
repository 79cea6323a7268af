// Package fix builds and applies the text edits of bflint's safe fixes.
// The edits change a plan's YAML text in place rather than re-encoding the
// document, because re-encoding would drop the author's comments, quoting
// and layout; they are offered only where that text has the simple block
// shape they expect, and nowhere else.
package fix

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"golang.org/x/tools/go/analysis"
)

// Edit is a text edit as byte offsets into one file's content.
type Edit struct {
	Start, End int
	Text       string
}

// Apply applies edits to content. Identical edits count once, because the
// findings of one list share the edits that make the list's shape (a
// reordered list, a new rebuild key). Insertions at one offset keep their
// order, so items inserted before the same line stay in rebuild order. An
// overlap is an error: the edits come from findings that disagree.
func Apply(content []byte, edits []Edit) ([]byte, error) {
	seen := map[Edit]bool{}
	var list []Edit
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(content) {
			return nil, fmt.Errorf("edit %d-%d lies outside the file", e.Start, e.End)
		}
		if !seen[e] {
			seen[e] = true
			list = append(list, e)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Start < list[j].Start })
	var out bytes.Buffer
	at := 0
	for _, e := range list {
		if e.Start < at {
			return nil, fmt.Errorf("edits overlap at byte %d", e.Start)
		}
		out.Write(content[at:e.Start])
		out.WriteString(e.Text)
		at = e.End
	}
	out.Write(content[at:])
	return out.Bytes(), nil
}

// Offsets converts a fix's edits, which hold positions of f, to offsets.
func Offsets(f *source.File, fix analysis.SuggestedFix) ([]Edit, error) {
	out := make([]Edit, 0, len(fix.TextEdits))
	for _, e := range fix.TextEdits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		if !f.Contains(e.Pos) || !f.Contains(end) {
			return nil, fmt.Errorf("fix %q edits outside %s", fix.Message, f.Name)
		}
		out = append(out, Edit{Start: f.Offset(e.Pos), End: f.Offset(end), Text: string(e.NewText)})
	}
	return out, nil
}

func lineStart(c []byte, off int) int { return bytes.LastIndexByte(c[:off], '\n') + 1 }

// lineEnd is the offset of the line's end, before any \r\n or \n.
func lineEnd(c []byte, off int) int {
	end := len(c)
	if i := bytes.IndexByte(c[off:], '\n'); i >= 0 {
		end = off + i
	}
	if end > off && c[end-1] == '\r' {
		end--
	}
	return end
}

func indentAt(c []byte, start int) int {
	n := 0
	for start+n < len(c) && c[start+n] == ' ' {
		n++
	}
	return n
}

// blockItems returns the offset of each item's value when every item of
// list is a one-line scalar written as "- value" on a line of its own; ok
// is false for a flow list or an item that spans lines.
func blockItems(f *source.File, list plan.RebuildList) (values []int, ok bool) {
	c := f.Content
	for i, it := range list.Items {
		if it.Range != nil {
			// A {node, range} mapping spans several lines.
			return nil, false
		}
		if !f.Contains(it.Value) {
			return nil, false
		}
		v := f.Offset(it.Value)
		start := lineStart(c, v)
		prefix := bytes.TrimRight(c[start:v], " ")
		if !bytes.Equal(bytes.TrimLeft(prefix, " "), []byte("-")) {
			return nil, false
		}
		if i > 0 && start <= values[i-1] {
			return nil, false
		}
		if !endsItem(c, v, len(prefix)-1) {
			return nil, false
		}
		values = append(values, v)
	}
	return values, len(values) > 0
}

// endsItem reports whether the item whose value starts at v, with its dash
// at column dash, ends on its own line: the next line with content is no
// deeper than the dash, or a comment. A quoted or plain scalar that goes on
// below it would be moved in half.
func endsItem(c []byte, v, dash int) bool {
	switch q := c[v]; q {
	case '|', '>':
		return false
	case '"', '\'':
		if bytes.IndexByte(c[v+1:lineEnd(c, v)], q) < 0 {
			return false
		}
	}
	for off := lineEnd(c, v); off < len(c); {
		next := bytes.IndexByte(c[off:], '\n')
		if next < 0 {
			return true
		}
		start := off + next + 1
		ind := indentAt(c, start)
		end := lineEnd(c, start)
		if start+ind < end && c[start+ind] != '#' {
			return ind <= dash
		}
		off = end
	}
	return true
}

// keyRest returns the offset just past the colon of the key at key, and
// the value written after it on the key's line, without a comment.
func keyRest(c []byte, key int) (colon int, value []byte) {
	end := lineEnd(c, key)
	i := bytes.IndexByte(c[key:end], ':')
	if i < 0 {
		return -1, nil
	}
	colon = key + i + 1
	value = c[colon:end]
	if h := bytes.Index(value, []byte(" #")); h >= 0 {
		value = value[:h]
	}
	return colon, bytes.TrimSpace(value)
}

// InsertItem returns the edits that add name to the rebuild list of d
// before its item at index before (len(items) appends): into the existing
// block list with its items' indentation, into an empty "rebuild:" or
// "rebuild: []", or as a new rebuild key at the top of a block downstream
// section. nil when the text has another shape.
func InsertItem(f *source.File, d *plan.Downstream, before int, name string) []analysis.TextEdit {
	c := f.Content
	insert := func(off int, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: f.Pos(off), End: f.Pos(off), NewText: []byte(text)}
	}
	list := d.Rebuild
	if len(list.Items) > 0 {
		values, ok := blockItems(f, list)
		if !ok {
			return nil
		}
		if before < len(values) {
			start := lineStart(c, values[before])
			return []analysis.TextEdit{insert(start, string(c[start:values[before]])+name+"\n")}
		}
		last := values[len(values)-1]
		prefix := string(c[lineStart(c, last):last])
		return []analysis.TextEdit{insert(lineEnd(c, last), "\n"+prefix+name)}
	}
	if f.Contains(list.Key) {
		key := f.Offset(list.Key)
		colon, value := keyRest(c, key)
		item := insert(lineEnd(c, key), "\n"+string(c[lineStart(c, key):key])+"  - "+name)
		switch string(value) {
		case "":
			return []analysis.TextEdit{item}
		case "[]":
			open := colon + bytes.IndexByte(c[colon:], '[')
			return []analysis.TextEdit{{Pos: f.Pos(open), End: f.Pos(open + 2)}, item}
		}
		return nil
	}
	if !f.Contains(d.Key) {
		return nil
	}
	key := f.Offset(d.Key)
	if _, value := keyRest(c, key); len(value) > 0 {
		return nil
	}
	indent := string(c[lineStart(c, key):key]) + "  "
	at := lineEnd(c, key)
	return []analysis.TextEdit{insert(at, "\n"+indent+"rebuild:"), insert(at, "\n"+indent+"  - "+name)}
}

// Reorder returns the edits that put the items of a block list in the order
// order, a permutation of their indexes. Each item's line moves whole, with
// its trailing comment; comment lines between items stay where they are.
func Reorder(f *source.File, list plan.RebuildList, order []int) []analysis.TextEdit {
	values, ok := blockItems(f, list)
	if !ok || len(order) != len(values) {
		return nil
	}
	c := f.Content
	var edits []analysis.TextEdit
	for slot, from := range order {
		if from == slot {
			continue
		}
		text := c[values[from]:lineEnd(c, values[from])]
		edits = append(edits, analysis.TextEdit{Pos: f.Pos(values[slot]), End: f.Pos(lineEnd(c, values[slot])), NewText: bytes.Clone(text)})
	}
	return edits
}

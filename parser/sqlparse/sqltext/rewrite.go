// Package sqltext is SQL as text: the lexer's tokens, the edits that
// normalise a statement with the map back to the offsets the user wrote,
// and the problems found on the way. Every reader of SQL in bflint starts
// here.
package sqltext

import (
	"sort"
	"strings"
)

// edit replaces src[Start:End] with Text. Inserted text maps back to Start,
// so a parser error inside it still points at what the user wrote.
type Edit struct {
	Start, End int
	Text       string
}

// segment is a run of the rewritten text and where it came from.
type segment struct {
	out, orig int  // start offsets in the rewritten and the original text
	length    int  // length in the rewritten text
	copied    bool // copied byte for byte; otherwise replacement text
}

// OffsetMap maps offsets in rewritten text back to the original.
type OffsetMap struct {
	segments []segment
	// outer maps on from the text this map's original was rewritten
	// from, when the text was rewritten twice (Then).
	outer *OffsetMap
}

// Then is a map through m and then outer: for text rewritten from a text
// that was itself rewritten from another, which outer maps back to.
func (m *OffsetMap) Then(outer *OffsetMap) *OffsetMap {
	if outer == nil {
		return m
	}
	c := *m
	if c.outer != nil {
		c.outer = c.outer.Then(outer)
	} else {
		c.outer = outer
	}
	return &c
}

// Orig returns the original offset of an offset in the rewritten text. An
// offset inside replacement text maps to the start of what it replaced.
func (m *OffsetMap) Orig(out int) int {
	if m.outer != nil {
		return m.outer.Orig(m.orig(out))
	}
	return m.orig(out)
}

func (m *OffsetMap) orig(out int) int {
	segs := m.segments
	if len(segs) == 0 {
		return out
	}
	i := sort.Search(len(segs), func(i int) bool { return segs[i].out > out }) - 1
	if i < 0 {
		i = 0
	}
	s := segs[i]
	if s.copied {
		return s.orig + min(out-s.out, s.length)
	}
	return s.orig
}

// Copied reports whether the rewritten text from start to end was copied
// from the original as it stands, none of it replacement text.
func (m *OffsetMap) Copied(start, end int) bool {
	return m.Orig(end)-m.Orig(start) == end-start
}

// Rewrite applies edits (sorted, not overlapping) to src[start:end] and
// returns the new text with its map back to offsets in src.
func Rewrite(src string, start, end int, edits []Edit) (string, *OffsetMap) {
	// Edits are sorted and do not overlap, so those touching [start, end)
	// begin at the first one ending after start: finding it by binary
	// search keeps a file of many statements linear in its edits.
	first := sort.Search(len(edits), func(i int) bool {
		return edits[i].End > start || (edits[i].Start >= start && edits[i].End == edits[i].Start)
	})
	if first == len(edits) || edits[first].Start >= end && !atTextEnd(edits[first], src, end) {
		// Most statements need no rewrite: share the file's text.
		return src[start:end], &OffsetMap{segments: []segment{{orig: start, length: end - start, copied: true}}}
	}
	// Sized once for the statement and what the edits insert: growing
	// the builder copies a long statement several times.
	size := end - start
	for _, e := range edits[first:] {
		if e.Start >= end {
			break
		}
		size += len(e.Text)
	}
	var b strings.Builder
	b.Grow(size + 64)
	m := &OffsetMap{}
	pos := start
	copyTo := func(to int) {
		if to > pos {
			m.segments = append(m.segments, segment{out: b.Len(), orig: pos, length: to - pos, copied: true})
			b.WriteString(src[pos:to])
			pos = to
		}
	}
	for _, e := range edits[first:] {
		if e.Start >= end && !atTextEnd(e, src, end) {
			break
		}
		if e.End <= start && e.Start != e.End {
			continue
		}
		copyTo(max(e.Start, pos))
		if e.Text != "" {
			m.segments = append(m.segments, segment{out: b.Len(), orig: e.Start, length: len(e.Text)})
			b.WriteString(e.Text)
		}
		pos = max(pos, min(e.End, end))
	}
	copyTo(end)
	return b.String(), m
}

// atTextEnd reports whether e inserts at the end of src, where the span
// ending there ends too: no statement follows to take the insertion, so it
// belongs to that one.
func atTextEnd(e Edit, src string, end int) bool {
	return e.Start == e.End && e.Start == end && end == len(src)
}

// SortEdits orders edits by position and drops any that overlap an earlier
// one: two rewrites claiming the same text is a bug in a rewrite, and the
// first one wins rather than corrupting the output.
func SortEdits(edits []Edit) []Edit {
	// At one offset, an insertion goes before a replacement that starts
	// there, so both are kept.
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		return a.Start < b.Start || a.Start == b.Start && a.Start == a.End && b.Start != b.End
	})
	out := edits[:0]
	last := -1
	for _, e := range edits {
		if e.Start < last {
			continue
		}
		out = append(out, e)
		last = max(last, e.End)
	}
	return out
}

// Problem is a defect of the SQL at an offset of the original text.
type Problem struct {
	Offset int
	Msg    string
}

// QuoteIdent quotes s as a "double-quoted" identifier.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// IsParameter reports whether an identifier is a query parameter or bind
// variable that normalisation quoted to keep its name (@submission_date,
// :start_date): a value supplied when the statement runs, never a column.
func IsParameter(name string) bool {
	return len(name) > 1 && (name[0] == '@' || name[0] == ':')
}

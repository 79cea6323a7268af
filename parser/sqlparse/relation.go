package sqlparse

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Relation is a table or view name as the user wrote it.
type Relation struct {
	// Parts are the dotted parts, unquoted, in the case they were written.
	Parts []string
	// Offset is where the name starts in the original text; -1 when the
	// name does not come from SQL (a plan value, a manifest entry).
	Offset int
}

// Name is the dotted name. Parts holding a dot or a quote are quoted, so
// that ParseRelationName reads the name back into the same parts.
func (r Relation) Name() string {
	parts := make([]string, len(r.Parts))
	for i, p := range r.Parts {
		if strings.ContainsAny(p, ".\"`") {
			p = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// Key is the parts in lower case: names compare without regard to case or
// quoting, because plans, manifests and warehouses disagree on both.
func (r Relation) Key() []string {
	key := make([]string, len(r.Parts))
	for i, p := range r.Parts {
		key[i] = strings.ToLower(p)
	}
	return key
}

// Schema is the part before the last one, "" for a bare name.
func (r Relation) Schema() string {
	if len(r.Parts) < 2 {
		return ""
	}
	return r.Parts[len(r.Parts)-2]
}

// Matches reports whether two names can denote the same relation. The
// shorter name leaves its leading parts to the session (the current database
// and schema), so it matches the longer one's trailing parts: schema.table
// matches db.schema.table, and table matches any name ending in it.
func (r Relation) Matches(o Relation) bool {
	a, b := r.Key(), o.Key()
	n := min(len(a), len(b))
	if n == 0 {
		return false
	}
	a, b = a[len(a)-n:], b[len(b)-n:]
	for i := range n {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ParseRelationName reads a name as plans and configuration write it:
// dots inside "..." or `...` belong to the part, a doubled quote inside
// quotes stands for the quote itself, and blanks around a part are dropped.
func ParseRelationName(s string) Relation {
	if strings.TrimSpace(s) == "" {
		return Relation{Offset: -1}
	}
	var parts []string
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			if i+1 < len(s) && s[i+1] == quote {
				b.WriteByte(c)
				i++
				continue
			}
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '`':
			quote = c
		case c == '.':
			parts = append(parts, b.String())
			b.Reset()
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			b.WriteByte(c)
		}
	}
	return Relation{Parts: append(parts, b.String()), Offset: -1}
}

// relationOf builds the Relation of a RangeVar. The parser folds unquoted
// names to lower case; the name is read again from the statement text so
// that messages quote it as the user wrote it, and pg_query's parts are kept
// when the text says something else (a rewrite, ONLY before the name).
func relationOf(st *Statement, rv *pg_query.RangeVar) Relation {
	var parts []string
	for _, p := range []string{rv.GetCatalogname(), rv.GetSchemaname(), rv.GetRelname()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if loc := int(rv.GetLocation()); loc >= 0 && loc < len(st.Text) {
		if written := readName(st.Text[loc:]); sameName(written, parts) {
			parts = written
		}
	}
	return Relation{Parts: parts, Offset: st.Orig(rv.GetLocation())}
}

func sameName(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// readName reads the dotted identifier at the start of s, unquoting quoted
// parts; it stops at the first thing that is not part of a name.
func readName(s string) []string {
	var parts []string
	i := 0
	for {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		switch {
		case i < len(s) && s[i] == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '"' {
					if j+1 < len(s) && s[j+1] == '"' {
						b.WriteByte('"')
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil
			}
			parts = append(parts, b.String())
			i = j + 1
		case i < len(s) && isWordStart(s[i]):
			j := i
			for j < len(s) && isWordPart(s[j]) {
				j++
			}
			parts = append(parts, s[i:j])
			i = j
		default:
			return nil
		}
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i >= len(s) || s[i] != '.' {
			return parts
		}
		i++
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

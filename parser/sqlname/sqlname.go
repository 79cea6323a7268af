// Package sqlname holds relation names as plans, manifests, configuration
// and SQL write them, and how they compare. It does not link the SQL
// parser, so lineage and plan code can name relations without cgo.
package sqlname

import "strings"

// Relation is a table or view name as the user wrote it.
type Relation struct {
	// Parts are the dotted parts, unquoted, in the case they were written.
	Parts []string
	// Offset is where the name starts in the original text; -1 when the
	// name does not come from SQL (a plan value, a manifest entry).
	Offset int
}

// Name is the dotted name. Parts holding a dot or a quote are quoted, so
// that Parse reads the name back into the same parts.
func (r Relation) Name() string {
	parts := make([]string, len(r.Parts))
	for i, p := range r.Parts {
		if strings.ContainsAny(p, ".\"`[") {
			p = quote(p)
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// SQL is the name as a SQL parser reads it, whatever quotes the adapter
// that recorded it used (BigQuery's backquotes, SQL Server's brackets):
// a part that is not a plain identifier is double-quoted.
func (r Relation) SQL() string {
	parts := make([]string, len(r.Parts))
	for i, p := range r.Parts {
		if !plainIdentifier(p) {
			p = quote(p)
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

func quote(part string) string { return `"` + strings.ReplaceAll(part, `"`, `""`) + `"` }

// plainIdentifier reports whether a part reads as itself unquoted.
func plainIdentifier(p string) bool {
	if p == "" {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		letter := c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
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

// Parse reads a name as plans, configuration and every adapter's manifest
// write it: dots inside "...", `...` or [...] belong to the part, a doubled
// closing quote inside quotes stands for the quote itself, and blanks
// around a part are dropped.
func Parse(s string) Relation {
	if strings.TrimSpace(s) == "" {
		return Relation{Offset: -1}
	}
	var parts []string
	var b strings.Builder
	var quote byte // the character that closes the quoted part
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
		case c == '[':
			quote = ']'
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

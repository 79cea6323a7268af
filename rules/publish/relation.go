package publish

import "strings"

// relationParts splits a relation name such as db."Schema".table into its
// parts the way the plan format compares names: dots inside quotes belong to
// the part, quotes are removed and case is folded.
func relationParts(s string) []string {
	var parts []string
	var b strings.Builder
	var quote rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0 && c == quote:
			// A doubled quote inside a quoted part stands for the quote itself.
			if i+1 < len(rs) && rs[i+1] == quote {
				b.WriteRune(c)
				i++
				continue
			}
			quote = 0
		case quote != 0:
			b.WriteRune(c)
		case c == '"' || c == '`':
			quote = c
		case c == '.':
			parts = append(parts, strings.ToLower(b.String()))
			b.Reset()
		case c == ' ' || c == '\t':
			// Unquoted identifiers hold no spaces: these surround a part.
		default:
			b.WriteRune(c)
		}
	}
	return append(parts, strings.ToLower(b.String()))
}

// dbtResourceTypes are the first parts of the dbt unique_ids a target may be.
var dbtResourceTypes = map[string]bool{"model": true, "seed": true, "snapshot": true, "source": true}

// isNodeID reports whether a name is a dbt unique_id (model.shop.fct_orders)
// rather than a relation; its schema is only known from a manifest.
func isNodeID(parts []string) bool {
	return len(parts) >= 3 && dbtResourceTypes[parts[0]]
}

// schemaOf returns the database (empty unless written) and the schema of a
// relation; ok is false for a bare name, whose schema is the session's.
func schemaOf(parts []string) (db, schema string, ok bool) {
	n := len(parts)
	if n < 2 || parts[n-2] == "" {
		return "", "", false
	}
	if n >= 3 {
		db = parts[n-3]
	}
	return db, parts[n-2], true
}

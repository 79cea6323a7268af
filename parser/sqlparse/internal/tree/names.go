package tree

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

func SameName(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		// The parser cuts identifiers to NAMEDATALEN-1 bytes; the name as
		// written is the one the warehouse knows.
		cut := len(b[i]) == maxIdentifier && len(a[i]) > maxIdentifier && strings.EqualFold(a[i][:maxIdentifier], b[i])
		if !strings.EqualFold(a[i], b[i]) && !cut {
			return false
		}
	}
	return true
}

// maxIdentifier is the length PostgreSQL cuts identifiers to.
const maxIdentifier = 63

// ReadName reads the dotted identifier at the start of s, unquoting quoted
// parts; it stops at the first thing that is not part of a name.
func ReadName(s string) []string {
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
		case i < len(s) && sqltext.IsWordStart(s[i]):
			j := i
			for j < len(s) && sqltext.IsWordPart(s[j]) {
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

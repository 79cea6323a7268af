package pgjson

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// The Integers pg_query's JSON leaves out, recovered from the statement's
// literals, or the statement sent through pg_query.Parse.

// repair restores the Integers the JSON left out, from text; false means
// the tree cannot be trusted and the statement must go through protobuf.
func (d *jsonDecoder) repair(text string) bool {
	if d.unknown != 0 {
		return false
	}
	// An array bound is -1 for [] or ARRAY, and 0 only for a literal
	// [0], which is rare enough to settle by re-parsing.
	if len(d.bounds) > 0 && zeroBound(text) {
		return false
	}
	for _, b := range d.bounds {
		b.Ival = -1
	}
	for _, c := range d.consts {
		v, ok := constAt(text, int(c.Location))
		if !ok {
			return false
		}
		c.Val.(*pg_query.A_Const_Ival).Ival.Ival = v
	}
	return true
}

// zeroBound reports whether text may hold an array bound of 0: a '['
// followed, past blanks and comments, by a '0'.
func zeroBound(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] == '[' {
			if j := skipSQLBlank(text, i+1); j < len(text) && text[j] == '0' {
				return true
			}
		}
	}
	return false
}

// constAt reads the integer constant at loc, whose value the JSON says is 0
// or negative. The grammar places such a constant at its literal, or at the
// unary minus folded into it (-1, - (2), - -3), or at the keyword of a
// flag it sets (READ WRITE), which is never negative.
func constAt(text string, loc int) (int32, bool) {
	if loc < 0 || loc >= len(text) {
		return 0, false
	}
	if isSQLIdentStart(text[loc]) {
		return 0, true
	}
	i, neg := loc, false
	if text[i] == '+' {
		i++
	}
	for {
		i = skipSQLBlank(text, i)
		if i < len(text) && text[i] == '-' {
			neg = !neg
			i++
			continue
		}
		if i < len(text) && text[i] == '(' {
			i++
			continue
		}
		break
	}
	mag, ok := intLiteral(text[i:])
	if !ok || mag > 1<<31 {
		return 0, false
	}
	v := int64(mag)
	if neg {
		v = -v
	}
	if v > 0 || v < -1<<31 {
		return 0, false
	}
	return int32(v), true
}

// intLiteral reads a PostgreSQL integer literal at the start of s: decimal,
// 0x, 0o or 0b, with underscores between digits.
func intLiteral(s string) (uint64, bool) {
	base, i := uint64(10), 0
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, i = 16, 2
		case 'o', 'O':
			base, i = 8, 2
		case 'b', 'B':
			base, i = 2, 2
		}
	}
	var v uint64
	digits := 0
	for ; i < len(s); i++ {
		c := s[i]
		var n uint64
		switch {
		case c == '_' && digits > 0 && i+1 < len(s) && s[i+1] != '_':
			continue
		case c >= '0' && c <= '9':
			n = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			n = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			n = uint64(c-'A') + 10
		default:
			n = base
		}
		if n >= base {
			break
		}
		v = v*base + n
		digits++
		if v > 1<<32 {
			return 0, false
		}
	}
	// A fraction, exponent or letter after the digits is another token
	// than the integer literal this must be.
	if digits == 0 || i < len(s) && (s[i] == '.' || isSQLIdentStart(s[i]) || s[i] >= '0' && s[i] <= '9') {
		return 0, false
	}
	return v, true
}

func isSQLIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// skipSQLBlank skips white space and comments from i.
func skipSQLBlank(text string, i int) int {
	for i < len(text) {
		switch {
		case strings.IndexByte(" \t\n\r\f\v", text[i]) >= 0:
			i++
		case strings.HasPrefix(text[i:], "--"):
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return len(text)
			}
			i += nl + 1
		case strings.HasPrefix(text[i:], "/*"):
			depth := 0
			for i < len(text) {
				if strings.HasPrefix(text[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(text[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		default:
			return i
		}
	}
	return i
}

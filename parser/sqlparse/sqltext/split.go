package sqltext

import "strings"

// Piece is the span of one statement, from after the previous ';' to its
// own ';' inclusive (or the end of the file).
type Piece struct{ Start, End int }

// Split cuts the token stream at semicolons outside brackets.
func Split(src string, toks []Token) []Piece {
	var out []Piece
	start, depth := 0, 0
	for _, t := range toks {
		if t.Kind != Punct {
			continue
		}
		switch c := src[t.Start]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth = max(depth-1, 0)
		case c == ';' && depth == 0:
			out = append(out, Piece{start, int(t.End)})
			start = int(t.End)
		}
	}
	if len(toks) > 0 && start < int(toks[len(toks)-1].End) {
		out = append(out, Piece{start, int(toks[len(toks)-1].End)})
	}
	return out
}

// Code drops space and comments, so rewrites look at neighbours in
// the SQL itself.
func Code(toks []Token) []Token {
	// Counted first: the slices are kept per statement, and sizing them
	// for every token would double what they hold.
	return appendCode(make([]Token, 0, codeCount(toks)), toks)
}

func codeCount(toks []Token) int {
	n := 0
	for _, t := range toks {
		if t.IsCode() {
			n++
		}
	}
	return n
}

// appendCode appends toks' code tokens to dst.
func appendCode(dst, toks []Token) []Token {
	for _, t := range toks {
		if t.IsCode() {
			dst = append(dst, t)
		}
	}
	return dst
}

// IdentName returns the name a "quoted identifier" stands for.
func IdentName(s string) string { return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`) }

// CountStatements counts the statements of src as Split would cut them,
// without lexing it: a scan of quotes, comments and brackets, for text too
// large to read (the rest of a file past what bflint reads), whose
// statements must still be counted as not read. Dollar quotes and nested
// comments are not followed, so the count is close, not exact.
func CountStatements(src string) int {
	n, depth := 0, 0
	code := false // code since the last statement's end
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\'' || c == '"' || c == '`':
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return n + 1
			}
			i += end + 1
			code = true
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				i = len(src)
			} else {
				i += end
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += end + 3
			}
		case c == '(' || c == '[':
			depth++
			code = true
		case c == ')' || c == ']':
			depth = max(depth-1, 0)
			code = true
		case c == ';' && depth == 0:
			if code {
				n++
			}
			code = false
		case !isSpace(c):
			code = true
		}
	}
	if code {
		n++
	}
	return n
}

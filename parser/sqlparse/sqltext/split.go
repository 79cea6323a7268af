package sqltext

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
			out = append(out, Piece{start, t.End})
			start = t.End
		}
	}
	if len(toks) > 0 && start < toks[len(toks)-1].End {
		out = append(out, Piece{start, toks[len(toks)-1].End})
	}
	return out
}

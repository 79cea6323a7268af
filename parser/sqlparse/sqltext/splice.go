package sqltext

import (
	"sort"
	"strings"
)

// SplicedCode returns the code tokens of text, rewritten from src by m,
// without lexing all of it again: the tokens of src (toks, from Lex)
// serve the runs copied from it, and only the replacement texts are
// lexed. ok is false where that could read text otherwise than Lex(text)
// does, and the caller lexes it whole: a token that a copied run cuts, two
// runs that meet without a space or a bracket between them (a word next
// to a word would join), a hash comment (whether # starts one depends on
// the line before it), backslashes and triple quotes (they change how
// the whole text is lexed), and a replacement Lex cannot read whole or
// that ends in a line comment.
func SplicedCode(src string, toks []Token, text string, m *OffsetMap) (code []Token, ok bool) {
	if m == nil || m.outer != nil || strings.ContainsAny(text, "#\\\x00") || strings.Contains(text, "'''") || strings.Contains(text, `"""`) {
		return nil, false
	}
	if n := len(m.segments); n == 0 || m.segments[n-1].out+m.segments[n-1].length != len(text) {
		return nil, false
	}
	// The tokens of each run, shifted from their run's offsets to text's:
	// a copied run's are the file's own, a replacement's are lexed into
	// one buffer for them all. All are known before the code tokens are,
	// which are then counted and sized once.
	type run struct {
		from, to int // toks[from:to], or lexed[from:to] for a replacement
		replaced bool
		shift    int
	}
	runs := make([]run, 0, len(m.segments))
	var lexed []Token
	for si, s := range m.segments {
		if si > 0 && !separated(text, s.out) {
			return nil, false
		}
		if !s.copied {
			from := len(lexed)
			var err *LexError
			lexed, err = lexAppend(lexed, text[s.out:s.out+s.length], 0)
			if err != nil || !tiles(lexed[from:], 0, s.length) || lexed[len(lexed)-1].Kind == LineComment {
				// A line comment the replacement ends in runs on over
				// what follows it.
				return nil, false
			}
			runs = append(runs, run{from: from, to: len(lexed), replaced: true, shift: s.out})
			continue
		}
		end := s.orig + s.length
		i := sort.Search(len(toks), func(k int) bool { return int(toks[k].Start) >= s.orig })
		j := sort.Search(len(toks), func(k int) bool { return int(toks[k].Start) >= end })
		if !tiles(toks[i:j], s.orig, end) {
			return nil, false
		}
		runs = append(runs, run{from: i, to: j, shift: s.out - s.orig})
	}
	tokensOf := func(r run) []Token {
		if r.replaced {
			return lexed[r.from:r.to]
		}
		return toks[r.from:r.to]
	}
	n := 0
	for _, r := range runs {
		for _, t := range tokensOf(r) {
			if t.IsCode() {
				n++
			}
		}
	}
	code = make([]Token, 0, n)
	for _, r := range runs {
		for _, t := range tokensOf(r) {
			if t.IsCode() {
				code = append(code, Token{Kind: t.Kind, Start: int32(int(t.Start) + r.shift), End: int32(int(t.End) + r.shift)})
			}
		}
	}
	return code, true
}

// tiles reports whether toks cover start..end exactly, one after another.
func tiles(toks []Token, start, end int) bool {
	if start == end {
		return len(toks) == 0
	}
	if len(toks) == 0 || int(toks[0].Start) != start || int(toks[len(toks)-1].End) != end {
		return false
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].Start != toks[i-1].End {
			return false
		}
	}
	return true
}

// separated reports whether the runs meeting at offset at of text are
// lexed apart whatever they hold: a space or a bracket, comma or
// semicolon stands on one side of the meeting point.
func separated(text string, at int) bool {
	if at == 0 || at == len(text) {
		return true
	}
	apart := func(c byte) bool { return isSpace(c) || strings.IndexByte("(),;", c) >= 0 }
	return apart(text[at-1]) || apart(text[at])
}

package sqltext

import (
	"unsafe"

	"github.com/bflint/bflint/parser/sqlparse/internal/scratch"
)

// Lexed is a text's tokens, and its code tokens (Code), in buffers lent
// by a pool (internal/scratch) until Release. A caller that reads a
// whole file's tokens only while it reads the file lexes it this way.
type Lexed struct {
	Tokens, Code []Token
	Err          *LexError
	// lent is the buffer the tokens were lexed into; Tokens has an array
	// of its own when lexing grew it, or read the text again in another
	// mode.
	lent []Token
}

// bytesPerToken sizes the buffer lent for a text, which grows only for a
// denser text: the development repositories average 5.6 to 7.9 bytes a
// token, and their largest files, lists of literal rows, 2 to 11. Lex's
// one token per three bytes would hold twice what most files need, and
// that matters for a file too large for the pool to keep its buffer.
const bytesPerToken = 5

// TokenBuffers lends the token buffers a file's reading needs for a while:
// LexPooled's, and the Jinja reading's copies of the code.
var TokenBuffers scratch.Pool[Token]

// LexPooled lexes src as Lex does, into lent buffers. The tokens are
// valid until Release; whatever outlives it must be copied.
func LexPooled(src string) *Lexed {
	lent := TokenBuffers.Get(len(src)/bytesPerToken + 8)[:0]
	toks, err := lexInto(lent, src)
	code := appendCode(TokenBuffers.Get(codeCount(toks))[:0], toks)
	return &Lexed{Tokens: toks, Code: code, Err: err, lent: lent}
}

// Release gives l's buffers back; l and its slices must not be used
// after it.
func (l *Lexed) Release() {
	if unsafe.SliceData(l.Tokens) != unsafe.SliceData(l.lent) {
		TokenBuffers.Put(l.lent)
	}
	TokenBuffers.Put(l.Tokens)
	TokenBuffers.Put(l.Code)
	*l = Lexed{}
}

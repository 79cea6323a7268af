package sqltext

import (
	"strings"
)

// TokenKind classifies a lexical token of warehouse SQL with dbt Jinja.
type TokenKind uint8

const (
	Space        TokenKind = iota
	LineComment            // -- ..., # ... (BigQuery) or // ... (Snowflake)
	BlockComment           // /* ... */, nested as in PostgreSQL
	Word                   // identifier or keyword
	QuotedIdent            // "..."
	Backtick               // `...` (BigQuery, Spark)
	String                 // '...', E'...', r'...', b"...", '''...''', """...""", $tag$...$tag$
	Number
	Param     // $1, @name, :name
	Punct     // ( ) [ ] , ; .
	Operator  // any other run of operator characters
	JinjaExpr // {{ ... }}
	JinjaTag  // {% ... %}
	JinjaNote // {# ... #}
)

// Token is a span of the source; Start and End are byte offsets. They
// are 32 bits, as no file bflint reads comes near 2 GiB: a token takes 12
// bytes instead of 24, and so do the copies of a large file's tokens made
// for each statement and each reading of it.
type Token struct {
	Kind       TokenKind
	Start, End int32
}

// Text returns the token's text in src.
func (t Token) Text(src string) string { return src[t.Start:t.End] }

// IsCode reports whether the token is SQL or Jinja, not space or a comment.
func (t Token) IsCode() bool {
	return t.Kind != Space && t.Kind != LineComment && t.Kind != BlockComment && t.Kind != JinjaNote
}

// LexError is where and why the lexer stopped; tokens before it are valid.
type LexError struct {
	Offset int
	Msg    string
}

// Lex splits src into tokens. It stops at the first fault (an unterminated
// string, comment or Jinja block, or a NUL byte) and returns the tokens
// before it with the error, so statements before the fault can still be
// analysed.
//
// A backslash escapes a quote in BigQuery's, Spark's and Snowflake's
// strings but not in PostgreSQL's, and nothing in a file says which it is.
// Read the PostgreSQL way, a file written with escapes shows it: a string
// that ends in a backslash and a quote runs straight into a word
// ('it\'s'), or a string never ends. Such a file is read again with
// escapes.
//
// Three quotes open a BigQuery string; in every other dialect they are a
// quote and a doubled one, which is how Snowflake reads
//
//	REPLACE(path, '.', '''][''')
//
// When a triple-quoted string never ends, the file is read again with
// none.
func Lex(src string) ([]Token, *LexError) { return lexInto(tokensFor(src), src) }

// lexInto is Lex, lexing into buf's array while it has room; a text read
// again in another mode gets an array of its own.
func lexInto(buf []Token, src string) ([]Token, *LexError) {
	// The PostgreSQL parser reads C strings, which end at a NUL byte: the
	// file is read up to it and no further.
	if nul := strings.IndexByte(src, 0); nul >= 0 {
		toks, _ := lexInto(buf, src[:nul])
		return toks, &LexError{nul, "NUL byte in the file: it is binary or corrupt, not SQL"}
	}
	toks, err := lexAppend(buf[:0], src, 0)
	if escapedQuote(src, toks) || escapedIdentAcrossLines(src, toks) || err != nil && strings.HasPrefix(err.Msg, "unterminated") && (strings.Contains(src, `\'`) || strings.Contains(src, `\"`)) {
		if etoks, eerr := lex(src, backslashEscapes); eerr == nil || err != nil && eerr.Offset > err.Offset {
			toks, err = etoks, eerr
		}
	}
	if err != nil && err.Msg == unterminatedTriple {
		if ptoks, perr := lex(src, noTripleQuotes); perr == nil || perr.Offset > err.Offset {
			return ptoks, perr
		}
	}
	return toks, err
}

// lexMode says how quotes are read.
type lexMode int

const (
	backslashEscapes lexMode = 1 << iota // a backslash escapes the next character in every string
	noTripleQuotes                       // three quotes are a quote and a doubled one
)

const unterminatedTriple = "unterminated triple-quoted string"

// escapedQuote reports whether a string or quoted identifier read without
// escapes ends in a backslash and a quote that a word follows at once.
func escapedQuote(src string, toks []Token) bool {
	for _, t := range toks {
		if (t.Kind != String && t.Kind != QuotedIdent) || int(t.End) >= len(src) || !IsWordPart(src[t.End]) {
			continue
		}
		if text := t.Text(src); len(text) >= 3 && OddBackslashes(text[:len(text)-1]) {
			return true
		}
	}
	return false
}

// escapedIdentAcrossLines reports whether a double-quoted token read
// without escapes holds a backslash and runs over a line break: no name
// does, while BigQuery's "a\"" read that way swallows the text up to the
// next quote.
func escapedIdentAcrossLines(src string, toks []Token) bool {
	for _, t := range toks {
		if text := t.Text(src); t.Kind == QuotedIdent && strings.Contains(text, `\"`) && strings.Contains(text, "\n") {
			return true
		}
	}
	return false
}

// OddBackslashes reports whether s ends in an odd run of backslashes: the
// character after it is escaped.
func OddBackslashes(s string) bool {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

func lex(src string, mode lexMode) ([]Token, *LexError) {
	return lexAppend(tokensFor(src), src, mode)
}

// tokensFor returns an empty token slice sized for src. SQL averages a
// token (whitespace included) per three to four bytes; sizing for that up
// front saves the copies of growing the slice.
func tokensFor(src string) []Token { return make([]Token, 0, len(src)/3+8) }

// lexAppend is lex appending to toks, for a caller that lexes many small
// texts into one buffer; offsets are src's.
func lexAppend(toks []Token, src string, mode lexMode) ([]Token, *LexError) {
	first := len(toks)
	i := 0
	for i < len(src) {
		start := i
		c := src[i]
		var kind TokenKind
		var err *LexError
		switch {
		case isSpace(c):
			for i < len(src) && isSpace(src[i]) {
				i++
			}
			kind = Space
		case IsWordStart(c) && !maybeStringPrefix(c):
			// Words are most of SQL: they skip the tests below, none of
			// which a word that cannot prefix a string passes.
			for i < len(src) && IsWordPart(src[i]) {
				i++
			}
			kind = Word
		case strings.HasPrefix(src[i:], "--") || strings.HasPrefix(src[i:], "//") || (c == '#' && isHashComment(src, i)):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			kind = LineComment
		case strings.HasPrefix(src[i:], "/*"):
			i, err = blockComment(src, i)
			kind = BlockComment
		case strings.HasPrefix(src[i:], "{{"):
			i, err = jinjaBlock(src, i, "}}", "Jinja expression {{ ... }}")
			kind = JinjaExpr
		case strings.HasPrefix(src[i:], "{%"):
			i, err = jinjaBlock(src, i, "%}", "Jinja tag {% ... %}")
			kind = JinjaTag
		case strings.HasPrefix(src[i:], "{#"):
			i, err = jinjaBlock(src, i, "#}", "Jinja comment {# ... #}")
			kind = JinjaNote
		case c == '\'':
			i, err = quoted(src, i, i, mode)
			kind = String
		case StringPrefix(src, i) > 0:
			i, err = quoted(src, i, i+StringPrefix(src, i), mode)
			kind = String
		case c == '"' && TripleQuoted(src, i):
			i, err = quoted(src, i, i, mode)
			kind = String
		case c == '"':
			i, err = quoted(src, i, i, mode)
			kind = QuotedIdent
		case c == '`':
			i, err = quoted(src, i, i, 0)
			kind = Backtick
		case c == '$' && i+1 < len(src) && IsDigit(src[i+1]):
			i++
			for i < len(src) && IsDigit(src[i]) {
				i++
			}
			kind = Param
		case c == '$':
			if end, ok := dollarQuoted(src, i); ok {
				i, kind = end, String
			} else if end < 0 {
				return toks, &LexError{i, "unterminated dollar-quoted string"}
			} else {
				i, kind = i+1, Operator
			}
		case IsDigit(c) || (c == '.' && i+1 < len(src) && IsDigit(src[i+1])):
			i = number(src, i)
			kind = Number
		case IsWordStart(c):
			for i < len(src) && IsWordPart(src[i]) {
				i++
			}
			kind = Word
		case (c == '@' || c == ':') && i+1 < len(src) && IsWordStart(src[i+1]) && !(c == ':' && i > 0 && src[i-1] == ':'):
			i++
			for i < len(src) && IsWordPart(src[i]) {
				i++
			}
			kind = Param
		case strings.IndexByte("()[],;.", c) >= 0:
			i++
			kind = Punct
		default:
			i++
			for i < len(src) && isOperatorChar(src[i]) && !strings.HasPrefix(src[i:], "--") && !strings.HasPrefix(src[i:], "/*") && !strings.HasPrefix(src[i:], "//") {
				i++
			}
			kind = Operator
		}
		if err != nil {
			return toks, err
		}
		if len(toks) == cap(toks) {
			toks = growTokens(toks, len(toks)-first, i, len(src))
		}
		toks = append(toks, Token{kind, int32(start), int32(i)})
	}
	return toks, nil
}

// growTokens returns toks with room for the tokens of the rest of a text
// of total bytes, projected from the n tokens its first done bytes gave,
// and an eighth more for a denser rest. append grows a large slice by a
// quarter at a time, so a file whose buffer was sized too small would
// allocate several times the tokens it holds.
func growTokens(toks []Token, n, done, total int) []Token {
	rest := (total - done) * n / max(done, 1)
	grown := make([]Token, len(toks), max(len(toks)+rest+rest/8+64, cap(toks)+cap(toks)/4))
	copy(grown, toks)
	return grown
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// maybeStringPrefix reports whether c can start a prefixed string literal
// (r”, b”, E”, N”, X” and their combinations).
func maybeStringPrefix(c byte) bool {
	switch c | 0x20 {
	case 'r', 'b', 'e', 'n', 'x':
		return true
	}
	return false
}

// isHashComment tells a BigQuery "#" comment from PostgreSQL's "#"
// operator: a comment starts a line or follows white space and is followed
// by a space or the end of the line. At the start of a line it may also
// run into a word (#standardSQL), which the operator never does there.
func isHashComment(src string, i int) bool {
	before := i == 0 || src[i-1] == '\n' || src[i-1] == ' ' || src[i-1] == '\t'
	after := i+1 >= len(src) || src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\r' || src[i+1] == '#' || src[i+1] == '!'
	return before && (after || lineStart(src, i) && IsWordStart(src[i+1]))
}

// lineStart reports whether only blanks stand before offset i on its line.
func lineStart(src string, i int) bool {
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	return i == 0 || src[i-1] == '\n'
}

// StringPrefix returns the length of the prefix of a prefixed string
// literal at i, or 0: PostgreSQL's E, B, N and X before a single quote,
// BigQuery's raw r and bytes b, alone or combined, before either quote.
func StringPrefix(src string, i int) int {
	if WordBefore(src, i) {
		return 0
	}
	n := 0
	for n < 2 && i+n < len(src) && strings.IndexByte("rRbB", src[i+n]) >= 0 {
		n++
	}
	if n == 2 && (src[i]|0x20) == (src[i+1]|0x20) {
		return 0 // rr or bb is a word
	}
	if n > 0 && i+n < len(src) && (src[i+n] == '\'' || src[i+n] == '"') {
		return n
	}
	if i+1 < len(src) && src[i+1] == '\'' && strings.IndexByte("EeNnXx", src[i]) >= 0 {
		return 1
	}
	return 0
}

// TripleQuoted reports whether a triple-quoted string opens at q. Four
// quotes or more are PostgreSQL's doubled quotes (four single quotes are a
// string holding one quote), not a triple-quoted string that starts with
// a quote.
func TripleQuoted(src string, q int) bool {
	c := src[q]
	return q+2 < len(src) && src[q+1] == c && src[q+2] == c && (q+3 == len(src) || src[q+3] != c)
}

func blockComment(src string, i int) (int, *LexError) {
	start := i
	depth := 0
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(src[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i, nil
			}
		default:
			i++
		}
	}
	return i, &LexError{start, "unterminated /* comment"}
}

func jinjaBlock(src string, i int, close, what string) (int, *LexError) {
	end := strings.Index(src[i+2:], close)
	if end < 0 {
		return len(src), &LexError{i, "unterminated " + what}
	}
	if close != "#}" {
		// A Jinja string may hold the closing marks, as a post_hook of
		// config() holds "{{ macro() }}": they close nothing there. When
		// a quote stays open, the first marks close the block as before.
		if e, ok := closeOutsideStrings(src, i+2, close); ok {
			return e, nil
		}
	}
	return i + 2 + end + len(close), nil
}

// closeOutsideStrings finds close from i on, outside Jinja's '...' and
// "..." strings, and returns the offset after it.
func closeOutsideStrings(src string, i int, close string) (int, bool) {
	var quote byte
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case strings.HasPrefix(src[i:], close):
			return i + len(close), true
		}
	}
	return 0, false
}

// quoted reads a quoted token whose opening quote is at q; a doubled quote
// escapes it, and so does a backslash in PostgreSQL's E strings and, in
// backslashEscapes mode, in every string and double-quoted token but raw
// ones. Triple-quoted strings run to the next three quotes, unless mode
// has noTripleQuotes.
func quoted(src string, start, q int, mode lexMode) (int, *LexError) {
	quote := src[q]
	if quote != '`' && mode&noTripleQuotes == 0 && TripleQuoted(src, q) {
		end := strings.Index(src[q+3:], src[q:q+3])
		if end < 0 {
			return len(src), &LexError{start, unterminatedTriple}
		}
		return q + 3 + end + 3, nil
	}
	backslash := mode&backslashEscapes != 0
	if start < q {
		prefix := src[start:q]
		backslash = strings.EqualFold(prefix, "e") || backslash && !strings.ContainsAny(prefix, "rR")
	}
	i := q + 1
	for i < len(src) {
		c := src[i]
		switch {
		case backslash && c == '\\':
			i += 2
		case quote != '`' && c == '{' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '%'):
			// dbt renders Jinja before the SQL is read: quotes inside a
			// template ('{{ x | replace("'", "''") }}') end nothing.
			close := "}}"
			if src[i+1] == '%' {
				close = "%}"
			}
			if end, ok := closeOutsideStrings(src, i+2, close); ok {
				i = end
			} else {
				i++
			}
		case c == quote && i+1 < len(src) && src[i+1] == quote:
			i += 2
		case c == quote:
			return i + 1, nil
		default:
			i++
		}
	}
	return len(src), &LexError{start, "unterminated " + quotedWhat(quote, start < q)}
}

// quotedWhat names what a quote opens, for the error when it never closes.
func quotedWhat(quote byte, prefixed bool) string {
	switch {
	case prefixed || quote == '\'':
		return "string"
	case quote == '"':
		return "quoted identifier"
	default:
		return "back-quoted identifier"
	}
}

// dollarQuoted reads $tag$...$tag$; end is -1 when the opening delimiter
// is complete but the closing one is missing, 0 when this is no delimiter.
func dollarQuoted(src string, i int) (end int, ok bool) {
	j := i + 1
	for j < len(src) && IsWordPart(src[j]) && src[j] != '$' {
		j++
	}
	if j >= len(src) || src[j] != '$' {
		return 0, false
	}
	tag := src[i : j+1]
	close := strings.Index(src[j+1:], tag)
	if close < 0 {
		return -1, false
	}
	return j + 1 + close + len(tag), true
}

func number(src string, i int) int {
	// A hexadecimal literal (0x1f, Trino's empty varbinary 0x) is one
	// token when the hex digits end the word.
	if src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x' {
		j := i + 2
		for j < len(src) && isHexDigit(src[j]) {
			j++
		}
		if j == len(src) || !IsWordPart(src[j]) {
			return j
		}
	}
	for i < len(src) && (IsDigit(src[i]) || src[i] == '.' || src[i] == '_') {
		i++
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && IsDigit(src[j]) {
			i = j
			for i < len(src) && IsDigit(src[i]) {
				i++
			}
		}
	}
	return i
}

func WordBefore(src string, i int) bool { return i > 0 && IsWordPart(src[i-1]) }

func IsDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool  { return IsDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
func IsWordStart(c byte) bool { return c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func IsWordPart(c byte) bool  { return IsWordStart(c) || IsDigit(c) || c == '$' }

// isOperatorChar leaves out the backtick PostgreSQL allows in operators:
// BigQuery and Spark quote names with it, right after an operator too
// (STRUCT<`end` DATE>, ~`bits`).
func isOperatorChar(c byte) bool {
	return strings.IndexByte("+-*/<>=~!@#%^&|?:", c) >= 0
}

// Package runcmd reads the shell line a plan gives as run.command and
// recognises the dbt and Airflow invocations in it: which models they
// select, which dates they cover and which flags change what a backfill
// does. It reads the line the way a POSIX shell splits it into words
// (quotes, backslash escapes, line continuations, the operators that start
// another command) without running or expanding anything, and keeps the
// byte offset of every word so a finding can point inside the command.
package runcmd

import (
	"fmt"
	"strings"
)

// Word is one shell word after quote removal.
type Word struct {
	// Value is the word as the program receives it, with an unexpanded
	// parameter, command substitution or template left as written.
	Value string
	// Offset and End delimit the word in the command text, quotes included.
	Offset, End int
	// Dynamic is set when the word holds an expansion ($VAR, ${VAR},
	// $(...), `...`) or a {{ template }}: its value is only known when the
	// command runs.
	Dynamic bool

	// offs[i] is where Value[i] comes from in the command text.
	offs []int
	// literal counts the leading bytes of Value that were written neither
	// quoted nor escaped; an assignment's name must lie among them.
	literal int
}

// from returns Value[i:] as a word of its own, such as the value of
// --flag=value.
func (w Word) from(i int) Word {
	s := w
	s.Value = w.Value[i:]
	s.offs = w.offs[i:]
	s.literal = max(w.literal-i, 0)
	if i < len(w.offs) {
		s.Offset = w.offs[i]
	} else {
		s.Offset = w.End
	}
	return s
}

// upTo returns Value[:i] as a word of its own, such as the flag of
// --flag=value.
func (w Word) upTo(i int) Word {
	s := w
	s.Value = w.Value[:i]
	s.offs = w.offs[:i]
	s.literal = min(w.literal, i)
	if i < len(w.offs) {
		s.End = w.offs[i]
	}
	return s
}

// Command is one simple command of the line: what runs between two of
// "&&", "||", ";", "|", "&", a parenthesis or a line break.
type Command struct {
	// Assignments are the VAR=value words before the program.
	Assignments []Word
	// Words are the program and its arguments.
	Words []Word
	// DBT is set when the command runs dbt, Airflow when it runs airflow;
	// at most one of them. The tool is recognised wherever it appears in
	// the words, so that launchers (uv run, poetry run, env, docker exec
	// CONTAINER) in front of it do not hide it.
	DBT     *DBT
	Airflow *Airflow
}

// SyntaxError is a command line that cannot be split into words, such as
// one with an unterminated quote.
type SyntaxError struct {
	Offset int // byte offset in the command text of the construct left open
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at byte %d", e.Msg, e.Offset)
}

// Parse splits a command line into its simple commands and recognises the
// dbt and Airflow ones. Redirections (> file, 2>&1) and comments are
// dropped; commands with no program (a bare assignment) are left out.
func Parse(text string) ([]*Command, error) {
	l := &lexer{src: text}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l.cmds, nil
}

type lexer struct {
	src  string
	i    int
	cmds []*Command

	words  []Word
	cur    Word
	buf    []byte // the current word's value
	inWord bool
	quoted bool // a quote or escape has been seen in the current word
	// redirect drops the next word: it names a redirection's file.
	redirect bool
	// noTemplate is where the last line known to hold no closing }} ends.
	noTemplate int
}

func (l *lexer) run() error {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.endWord()
			l.i++
		case c == '\n':
			l.endWord()
			l.endCommand()
			l.i++
		case c == '#' && !l.inWord:
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '\\':
			l.escape()
		case c == '\'':
			if err := l.singleQuoted(); err != nil {
				return err
			}
		case c == '"':
			if err := l.doubleQuoted(); err != nil {
				return err
			}
		case c == '$' || c == '`':
			if err := l.expansion(); err != nil {
				return err
			}
		case c == '{' && strings.HasPrefix(l.src[l.i:], "{{"):
			l.template()
		case c == '&' && strings.HasPrefix(l.src[l.i:], "&>"):
			l.endWord()
			l.redirection()
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			l.endWord()
			l.endCommand()
			l.i++
		case c == '<' || c == '>':
			l.redirection()
		default:
			l.add(c, l.i)
			l.i++
		}
	}
	l.endWord()
	l.endCommand()
	return nil
}

// add appends one byte of the source at off to the current word.
func (l *lexer) add(c byte, off int) {
	l.begin()
	l.buf = append(l.buf, c)
	l.cur.offs = append(l.cur.offs, off)
	if !l.quoted {
		l.cur.literal = len(l.buf)
	}
	l.cur.End = off + 1
}

// addRaw appends src[from:to] verbatim, as an expansion is kept.
func (l *lexer) addRaw(from, to int) {
	for k := from; k < to; k++ {
		l.add(l.src[k], k)
	}
}

func (l *lexer) begin() {
	if !l.inWord {
		l.inWord = true
		l.quoted = false
		l.cur = Word{Offset: l.i, End: l.i}
		l.buf = l.buf[:0]
	}
}

// markQuoted records that what follows in the word is no longer literal.
func (l *lexer) markQuoted() {
	l.begin()
	l.quoted = true
}

func (l *lexer) endWord() {
	if !l.inWord {
		return
	}
	l.inWord = false
	l.cur.Value = string(l.buf)
	if strings.Contains(l.cur.Value, "{{") {
		l.cur.Dynamic = true
	}
	if l.redirect {
		l.redirect = false
		return
	}
	l.words = append(l.words, l.cur)
}

func (l *lexer) endCommand() {
	l.redirect = false
	words := l.words
	l.words = nil
	n := 0
	for n < len(words) && isAssignment(words[n]) {
		n++
	}
	if n == len(words) {
		return
	}
	c := &Command{Assignments: words[:n:n], Words: words[n:]}
	c.recognise()
	l.cmds = append(l.cmds, c)
}

// isAssignment reports whether w is NAME=value with a NAME written plainly.
func isAssignment(w Word) bool {
	eq := strings.IndexByte(w.Value, '=')
	if eq <= 0 || eq >= w.literal {
		return false
	}
	for k := 0; k < eq; k++ {
		c := w.Value[k]
		if c != '_' && !isAlpha(c) && (k == 0 || !isDigit(c)) {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// escape reads a backslash outside quotes: before a line break it joins
// the lines; otherwise the next byte is taken literally. A backslash that
// ends the text is kept, as sh -c does.
func (l *lexer) escape() {
	rest := l.src[l.i+1:]
	switch {
	case strings.HasPrefix(rest, "\n"):
		l.i += 2
	case strings.HasPrefix(rest, "\r\n"):
		l.i += 3
	case rest == "":
		l.add('\\', l.i)
		l.i++
	default:
		l.markQuoted()
		l.add(rest[0], l.i+1)
		l.i += 2
	}
}

func (l *lexer) singleQuoted() error {
	open := l.i
	end := strings.IndexByte(l.src[open+1:], '\'')
	if end < 0 {
		return &SyntaxError{Offset: open, Msg: "unterminated single quote"}
	}
	l.markQuoted()
	l.addRaw(open+1, open+1+end)
	l.i = open + end + 2
	l.cur.End = l.i
	return nil
}

// doubleQuoted reads "...", where a backslash escapes only $ ` " \ and a
// line break, and expansions still happen.
func (l *lexer) doubleQuoted() error {
	open := l.i
	l.markQuoted()
	l.i++
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '"':
			l.i++
			l.cur.End = l.i
			return nil
		case c == '\\' && l.i+1 < len(l.src) && strings.IndexByte("$`\"\\\n", l.src[l.i+1]) >= 0:
			if l.src[l.i+1] != '\n' {
				l.add(l.src[l.i+1], l.i+1)
			}
			l.i += 2
		case c == '$' || c == '`':
			if err := l.expansion(); err != nil {
				return err
			}
		default:
			l.add(c, l.i)
			l.i++
		}
	}
	return &SyntaxError{Offset: open, Msg: "unterminated double quote"}
}

// expansion keeps $NAME, ${...}, $(...) and `...` in the word as written
// and marks it dynamic. A $ that starts none of them is an ordinary byte.
func (l *lexer) expansion() error {
	start := l.i
	if l.src[start] == '`' {
		end := closingBacktick(l.src, start+1)
		if end < 0 {
			return &SyntaxError{Offset: start, Msg: "unterminated ` command substitution"}
		}
		l.dynamic(start, end+1)
		return nil
	}
	next := byte(0)
	if start+1 < len(l.src) {
		next = l.src[start+1]
	}
	switch {
	case next == '(':
		end := closingParen(l.src, start+1)
		if end < 0 {
			return &SyntaxError{Offset: start, Msg: "unterminated $( command substitution"}
		}
		l.dynamic(start, end+1)
	case next == '{':
		end := strings.IndexByte(l.src[start:], '}')
		if end < 0 {
			return &SyntaxError{Offset: start, Msg: "unterminated ${ parameter expansion"}
		}
		l.dynamic(start, start+end+1)
	case next == '_' || isAlpha(next):
		end := start + 1
		for end < len(l.src) && (l.src[end] == '_' || isAlpha(l.src[end]) || isDigit(l.src[end])) {
			end++
		}
		l.dynamic(start, end)
	case next != 0 && strings.IndexByte("0123456789@*#?$!-", next) >= 0:
		l.dynamic(start, start+2)
	default:
		l.add('$', start)
		l.i++
	}
	return nil
}

func (l *lexer) dynamic(from, to int) {
	l.begin()
	l.cur.Dynamic = true
	l.addRaw(from, to)
	l.i = to
}

// template keeps a {{ ... }} placeholder, spaces included, as one dynamic
// part of the word; without a closing }} on the same line the braces are
// ordinary bytes.
func (l *lexer) template() {
	if l.i < l.noTemplate {
		l.add('{', l.i)
		l.i++
		return
	}
	line := l.src[l.i:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	end := strings.Index(line[2:], "}}")
	if end < 0 {
		// Nothing up to the line break closes a placeholder, so the
		// braces that follow on this line need not look again.
		l.noTemplate = l.i + len(line)
		l.add('{', l.i)
		l.i++
		return
	}
	l.dynamic(l.i, l.i+2+end+2)
}

// redirection drops a redirection operator, the file descriptor number
// written against it (2>) and the word it redirects to.
func (l *lexer) redirection() {
	if l.inWord && !l.quoted && len(l.buf) > 0 && strings.Trim(string(l.buf), "0123456789") == "" {
		l.inWord = false
	} else {
		l.endWord()
	}
	for l.i < len(l.src) && strings.IndexByte("<>&|", l.src[l.i]) >= 0 {
		l.i++
	}
	l.redirect = true
}

// closingParen returns the index of the ) that closes the ( at open,
// skipping nested parentheses and quoted text; -1 when there is none.
func closingParen(s string, open int) int {
	depth := 0
	for k := open; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k
			}
		case '\\':
			k++
		case '\'', '"':
			end := strings.IndexByte(s[k+1:], s[k])
			if end < 0 {
				return -1
			}
			k += end + 1
		}
	}
	return -1
}

// closingBacktick returns the index of the next unescaped backtick at or
// after from; -1 when there is none.
func closingBacktick(s string, from int) int {
	for k := from; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '`':
			return k
		}
	}
	return -1
}

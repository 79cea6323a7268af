package reporters

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable makes text from linted files safe to show a person: file
// content, names and messages quoting them may hold escape sequences that
// would recolour a terminal, move its cursor, retitle its window or ring
// it, or bidirectional controls that make a line read differently from
// what it holds. Each such character becomes U+FFFD, one for one, so
// columns stay countable. Tabs and line breaks are kept: each format says
// what a line break inside a value becomes (OneLine for the text formats).
func Printable(s string) string {
	clean := true
	for _, r := range s {
		// An invalid byte decodes to U+FFFD too, but is still in s as it
		// was: a lone 0x9B is a control introducer on some terminals.
		if printableRune(r) != r || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		sb.WriteRune(printableRune(r))
	}
	return sb.String()
}

// OneLine is Printable for a value shown within one line of a text
// format: its line breaks become U+FFFD too, so that a file named with a
// newline does not print as two lines.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return utf8.RuneError
		}
		return r
	}, Printable(s))
}

func printableRune(r rune) rune {
	switch {
	case r == '\t', r == '\n', r == '\r':
		return r
	case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
		return utf8.RuneError
	}
	return r
}

// PrintableWriter passes what is written to w through Printable, for a
// human-readable format whose every byte is either bflint's own text or a
// value from the input: it catches a value no escaper of the format
// handled. A carriage return is not bflint's, so it is replaced too. A
// character split between two writes is held back until it is whole;
// Close writes what is left.
type PrintableWriter struct {
	w    io.Writer
	held []byte
}

// WritePrintable runs write on w through a PrintableWriter: what every
// human-readable format but text (whose colours are escapes of its own,
// and which replaces values one by one) writes through.
func WritePrintable(w io.Writer, write func(io.Writer) error) error {
	pw := NewPrintableWriter(w)
	if err := write(pw); err != nil {
		return err
	}
	return pw.Close()
}

// NewPrintableWriter returns a PrintableWriter writing to w.
func NewPrintableWriter(w io.Writer) *PrintableWriter { return &PrintableWriter{w: w} }

func (p *PrintableWriter) Write(b []byte) (int, error) {
	text := append(p.held, b...)
	cut := len(text)
	// Hold back the start of a character the next write completes.
	for i := len(text) - 1; i >= 0 && i >= len(text)-utf8.UTFMax; i-- {
		if utf8.RuneStart(text[i]) {
			if !utf8.FullRune(text[i:]) {
				cut = i
			}
			break
		}
	}
	p.held = append([]byte(nil), text[cut:]...)
	if _, err := io.WriteString(p.w, printableStream(string(text[:cut]))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Close writes a character left incomplete, as U+FFFD.
func (p *PrintableWriter) Close() error {
	if len(p.held) == 0 {
		return nil
	}
	p.held = nil
	_, err := io.WriteString(p.w, string(utf8.RuneError))
	return err
}

func printableStream(s string) string {
	s = Printable(s)
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(s, "\r", string(utf8.RuneError))
}

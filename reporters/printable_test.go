package reporters

import (
	"bytes"
	"strings"
	"testing"
)

// Control characters, bidirectional controls and invalid bytes are
// replaced one for one; tabs and line breaks are the format's to handle.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttab\nline":              "plain\ttab\nline",
		"\x1b]0;title\x07":              "\uFFFD]0;title\uFFFD",
		"\u202eevil":                    "\uFFFDevil",
		"a\xffb":                        "a\uFFFDb",
		"\u009b31m":                     "\uFFFD31m",
		"name\nsecond\r":                "name\nsecond\r",
		"caf\u00e9 \u2014 \u65e5\u672c": "caf\u00e9 \u2014 \u65e5\u672c",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := OneLine("a\nb\rc"); got != "a\uFFFDb\uFFFDc" {
		t.Errorf("OneLine kept a line break: %q", got)
	}
}

// A character split between two writes, as a buffered writer splits
// them, comes out whole; one left incomplete at the end is replaced.
func TestPrintableWriterSplitsNoCharacter(t *testing.T) {
	text := "\u65e5\u672c \x1b[2J\u00e9\r\n"
	for cut := range len(text) + 1 {
		var buf bytes.Buffer
		pw := NewPrintableWriter(&buf)
		pw.Write([]byte(text[:cut]))
		pw.Write([]byte(text[cut:]))
		pw.Close()
		if want := "\u65e5\u672c \uFFFD[2J\u00e9\uFFFD\n"; buf.String() != want {
			t.Errorf("split at %d: %q, want %q", cut, buf.String(), want)
		}
	}
	var buf bytes.Buffer
	pw := NewPrintableWriter(&buf)
	pw.Write([]byte("x\xe6\x97"))
	pw.Close()
	if !strings.HasSuffix(buf.String(), "\uFFFD") || strings.Contains(buf.String(), "\xe6") {
		t.Errorf("an incomplete character at the end came out as %q", buf.String())
	}
}

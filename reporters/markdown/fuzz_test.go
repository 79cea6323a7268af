package markdown

import (
	"bytes"
	"go/token"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
)

// FuzzWrite renders findings whose file name, message and help are
// arbitrary: the summary must show no character a terminal or a log
// viewer would act on, and every finding must stay one row of the table.
func FuzzWrite(f *testing.F) {
	for _, s := range [][3]string{
		{"evil\x1b[31m\n::error::x%0A.sql", "\x1b]0;title\x07 | cell\nline", "help\r\nmore"},
		{"a|b.yaml", "`code` <b>x</b> [l](http://x)", ""},
		{"\xff\xfe.sql", "\u202eevil\u2028x", "\x9b31m"},
		{"models/a.sql", "plain message", "plain help"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, message, help string) {
		res := reportertest.Result()
		file := source.Add(token.NewFileSet(), name, []byte("select 1;\n"))
		res.Fset = nil
		res.Findings = []rules.Finding{{Rule: res.Rules[0], Severity: rules.SeverityError, File: file, Pos: file.Pos(0), Message: message, Help: help}}
		var buf bytes.Buffer
		if err := Write(&buf, res, Options{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !utf8.ValidString(out) {
			t.Fatalf("the summary is not UTF-8: %q", out)
		}
		for _, r := range out {
			if r != '\n' && r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r == '\u2028' || r == '\u2029' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' || r == '\u200e' || r == '\u200f' || r == '\u061c') {
				t.Fatalf("the summary holds control character %U: %q", r, out)
			}
		}
		rows := 0
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "| error |") {
				rows++
			}
		}
		if rows != 1 {
			t.Fatalf("one finding made %d rows:\n%s", rows, out)
		}
	})
}

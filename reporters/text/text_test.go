package text

import (
	"bytes"
	"errors"
	"flag"
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
	"github.com/fatih/color"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reportertest.Result(), Options{}); err != nil {
		t.Fatal(err)
	}
	reportertest.Golden(t, "report.txt", buf.Bytes(), *update)
}

func TestPlainOutputHasNoEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reportertest.Result(), Options{}); err != nil {
		t.Fatal(err)
	}
	// The fixture's build SQL holds an ESC byte; neither it nor a colour
	// sequence may reach the output.
	if bytes.ContainsRune(buf.Bytes(), 0x1b) {
		t.Errorf("plain output contains an escape character:\n%q", buf.String())
	}
	if !strings.Contains(buf.String(), "fct_orders_2026_01\uFFFD[2J") {
		t.Errorf("the control character in the source line was not replaced by U+FFFD:\n%s", buf.String())
	}
}

func TestColorIsPerCallNotGlobal(t *testing.T) {
	// go test's stdout is not a terminal, so fatih/color starts with the
	// global switch off; Options.Color must win over it, and leave it alone.
	before := color.NoColor
	var buf bytes.Buffer
	if err := Write(&buf, reportertest.Result(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if color.NoColor != before {
		t.Errorf("Write changed color.NoColor from %v to %v", before, color.NoColor)
	}
	out := buf.String()
	for _, want := range []string{
		"\x1b[31merror\x1b[0m",
		"\x1b[33mwarning\x1b[0m",
		"\x1b[34minfo\x1b[0m",
		"\x1b[2m[BF201 append-write]\x1b[22m",
		"\x1b[32m",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured output lacks %q:\n%q", want, out)
		}
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("x", 300) + "TARGET" + strings.Repeat("y", 300)
	tests := []struct {
		name      string
		line      string
		col       int // 1-based byte column
		src, care string
	}{
		{"start", "INSERT INTO t", 1, "INSERT INTO t", "^"},
		{"ascii", "INSERT INTO t", 13, "INSERT INTO t", "            ^"},
		// Tabs are copied into the padding; other characters become one
		// space each, whatever their byte length.
		{"tab and multibyte", "\tä\U0001F4E6 x", 9, "\tä\U0001F4E6 x", "\t   ^"},
		{"control", "a\x1bb", 3, "a\uFFFDb", "  ^"},
		{"invalid utf8", "a\xffb", 3, "a\uFFFDb", "  ^"},
		{"bidi override", "a\u202eb", 5, "a\uFFFDb", "  ^"},
		{"past the end", "ab", 3, "ab", "  ^"},
		{"long line", long, 301,
			"…" + strings.Repeat("x", 80) + "TARGET" + strings.Repeat("y", 74) + "…",
			strings.Repeat(" ", 81) + "^"},
		{"long line near end", long, len(long), "…" + long[len(long)-maxSourceWidth:],
			strings.Repeat(" ", maxSourceWidth) + "^"},
		// A line of megabytes is clipped before it is decoded; what shows
		// is the same as for a short long line. The ä on each side
		// straddles a clipping point.
		{"huge line", strings.Repeat("ä", 1<<20) + "TARGET" + strings.Repeat("ä", 1<<20), 2<<20 + 1,
			"…" + strings.Repeat("ä", 80) + "TARGET" + strings.Repeat("ä", 74) + "…",
			strings.Repeat(" ", 81) + "^"},
		{"huge line, column at its start", strings.Repeat("y", 4<<20), 1,
			strings.Repeat("y", maxSourceWidth) + "…", "^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, caret := excerpt(tt.line, tt.col)
			if src != tt.src || caret != tt.care {
				t.Errorf("excerpt(%q, %d)\n got  %q\n      %q\n want %q\n      %q", tt.line, tt.col, src, caret, tt.src, tt.care)
			}
		})
	}
}

func TestEmptyResult(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, &rules.Result{Fset: token.NewFileSet()}, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "no findings\n" {
		t.Errorf("got %q, want %q", got, "no findings\n")
	}
}

func TestBlankSourceLineIsNotShown(t *testing.T) {
	fset := token.NewFileSet()
	f := source.Add(fset, "empty.sql", []byte(""))
	r := &rules.Rule{Code: "BF002", Name: "sql-unparsed", Severity: rules.SeverityError}
	res := &rules.Result{Fset: fset, Findings: []rules.Finding{{Rule: r, File: f, Pos: f.Pos(0), Message: "file is empty"}}}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "empty.sql:1:1: error: file is empty [BF002 sql-unparsed]\n1 error, 0 warnings\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	if err := Write(failingWriter{}, reportertest.Result(), Options{}); err == nil {
		t.Error("Write to a failing writer returned nil")
	}
}

func TestPrintableReplacesInvalidBytes(t *testing.T) {
	got := printable("a\x9bb\x1b[31mc\td")
	if got != "a\uFFFDb\uFFFD[31mc\td" {
		t.Errorf("printable = %q", got)
	}
}

package github

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/bflint/bflint/reporters/internal/reportertest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func render(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, reportertest.Result(), Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	reportertest.Golden(t, "report.github", []byte(render(t)), *update)
}

func TestEscaping(t *testing.T) {
	tests := []struct {
		in, data, property string
	}{
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"%25 stays literal", "%2525 stays literal", "%2525 stays literal"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"key: value", "key: value", "key%3A value"},
		{"a,b", "a,b", "a%2Cb"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
		{"line=3", "line=3", "line=3"},
		{"", "", ""},
		{"ünï 📦", "ünï 📦", "ünï 📦"},
	}
	for _, tt := range tests {
		if got := EscapeData(tt.in); got != tt.data {
			t.Errorf("EscapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := EscapeProperty(tt.in); got != tt.property {
			t.Errorf("EscapeProperty(%q) = %q, want %q", tt.in, got, tt.property)
		}
	}
}

// A message with a newline must stay one command: otherwise its second line
// would reach the runner as a line of its own, possibly a command.
func TestOneLinePerAnnotation(t *testing.T) {
	out := render(t)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// Six active findings and one internal error; the suppressed BF603 is
	// not annotated.
	if len(lines) != 7 {
		t.Fatalf("%d lines, want 7:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::notice ") {
			t.Errorf("line is not a workflow command: %q", l)
		}
		if strings.Contains(l, "BF603") {
			t.Errorf("suppressed finding annotated: %q", l)
		}
	}
	want := "::notice file=plans/fct_orders.backfill.yaml,line=10,col=1,title=BF902 communication-missing::" +
		"communication has no \"consumers\": readers of \"analytics.fct_orders\" (dashboards, exports) see refund totals drop by 0.4%25 unannounced%0AList them under communication.consumers."
	if lines[5] != want {
		t.Errorf("escaped notice:\n got  %s\n want %s", lines[5], want)
	}
}

func TestColumnsAndEnds(t *testing.T) {
	lines := strings.Split(render(t), "\n")
	// Multi-line span: endLine but no endColumn, which GitHub only keeps on
	// single-line annotations.
	if want := "::warning file=models/sql/build.sql,line=2,col=1,endLine=4,title=BF204 non-atomic-replace::"; !strings.HasPrefix(lines[0], want) {
		t.Errorf("multi-line span:\n got  %s\n want prefix %s", lines[0], want)
	}
	// UTF-16 columns: the emoji before the relation counts two units.
	if want := "::error file=models/sql/build.sql,line=3,col=40,endLine=3,endColumn=60,title=BF201 append-write::"; !strings.HasPrefix(lines[2], want) {
		t.Errorf("single-line span:\n got  %s\n want prefix %s", lines[2], want)
	}
}

func TestFileNameIsEscapedAsProperty(t *testing.T) {
	res := reportertest.Result()
	res.Findings = res.Findings[4:5] // the BF103 plan finding
	res.Errors = nil
	res.Findings[0].File.Name = "plans/a,b:c%.yaml"
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "::warning file=plans/a%2Cb%3Ac%25.yaml,line=3,"; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("got %q, want prefix %q", buf.String(), want)
	}
}

package rdjsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func render(t *testing.T, res *rules.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	reportertest.Golden(t, "report.rdjsonl", render(t, reportertest.Result()), *update)
}

// The types below are written from reviewdog's proto/rdf/reviewdog.proto
// independently of the reporter's own structs, with every field of the
// schema, so the round trip checks the output against reviewdog's names
// rather than against itself.
type rdPosition struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type rdRange struct {
	Start rdPosition  `json:"start"`
	End   *rdPosition `json:"end"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdDiagnostic struct {
	Message  string     `json:"message"`
	Location rdLocation `json:"location"`
	Severity string     `json:"severity"`
	Source   struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"source"`
	Code struct {
		Value string `json:"value"`
		URL   string `json:"url"`
	} `json:"code"`
	Suggestions []struct {
		Range rdRange `json:"range"`
		Text  string  `json:"text"`
	} `json:"suggestions"`
	OriginalOutput   string `json:"original_output"`
	RelatedLocations []struct {
		Message  string     `json:"message"`
		Location rdLocation `json:"location"`
	} `json:"related_locations"`
}

func decodeLines(t *testing.T, out []byte) []rdDiagnostic {
	t.Helper()
	var ds []rdDiagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var d rdDiagnostic
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("line %q is not a reviewdog diagnostic: %v", sc.Text(), err)
		}
		if dec.More() {
			t.Fatalf("line %q holds more than one JSON value", sc.Text())
		}
		ds = append(ds, d)
	}
	return ds
}

// withFix adds a two-edit fix to the single-line BF201 finding on line 5,
// since no fixture finding carries one.
func withFix(res *rules.Result) *rules.Result {
	f := &res.Findings[3]
	file := f.File
	f.Fixes = []analysis.SuggestedFix{{
		Message: "replace the table's rows in the range",
		TextEdits: []analysis.TextEdit{
			{Pos: reportertest.At(file, 5, "INSERT INTO"), End: reportertest.After(file, 5, "INSERT INTO"), NewText: []byte("INSERT OVERWRITE")},
			{Pos: reportertest.After(file, 5, ";"), NewText: []byte("\n")},
		},
	}}
	return res
}

func TestRoundTrip(t *testing.T) {
	ds := decodeLines(t, render(t, withFix(reportertest.Result())))
	// Six active findings; the suppressed BF603 and the internal error are
	// not diagnostics.
	if len(ds) != 6 {
		t.Fatalf("%d diagnostics, want 6", len(ds))
	}
	for _, d := range ds {
		if d.Source.Name != "bflint" || d.Source.URL != "https://github.com/bflint/bflint" {
			t.Errorf("%s: source = %+v", d.Code.Value, d.Source)
		}
		if want := "https://github.com/bflint/bflint/blob/main/docs/rules/" + d.Code.Value + ".md"; d.Code.URL != want {
			t.Errorf("%s: code url = %q, want %q", d.Code.Value, d.Code.URL, want)
		}
		if d.Code.Value == "BF603" {
			t.Error("suppressed finding reported")
		}
	}

	// Byte columns: on line 3 a tab, two two-byte letters and a four-byte
	// emoji precede the relation, so it starts at byte column 44 where
	// SARIF's UTF-16 column is 40.
	append3 := ds[2]
	if append3.Code.Value != "BF201" || append3.Message != reportertest.AppendMessage || append3.Severity != "ERROR" {
		t.Errorf("third diagnostic = %+v", append3)
	}
	wantRange := rdRange{Start: rdPosition{3, 44}, End: &rdPosition{3, 64}}
	if append3.Location.Path != reportertest.BuildSQLName || !sameRange(append3.Location.Range, wantRange) {
		t.Errorf("location = %s %s, want %s %s", append3.Location.Path, fmtRange(append3.Location.Range), reportertest.BuildSQLName, fmtRange(wantRange))
	}

	// A multi-line span keeps its end; a finding without an end has none.
	if r := ds[0].Location.Range; !sameRange(r, rdRange{Start: rdPosition{2, 1}, End: &rdPosition{4, 51}}) || ds[0].Severity != "WARNING" {
		t.Errorf("multi-line span = %s %s", fmtRange(r), ds[0].Severity)
	}
	if r := ds[1].Location.Range; r.End != nil {
		t.Errorf("BF002 has no end but got %s", fmtRange(r))
	}

	// A severity lowered by configuration is INFO; the message keeps its
	// newline, which JSON escapes so the diagnostic stays on one line.
	last := ds[5]
	if last.Code.Value != "BF902" || last.Severity != "INFO" || last.Message != reportertest.EscapeMessage {
		t.Errorf("last diagnostic = %+v", last)
	}

	fixed := ds[3]
	if len(fixed.Suggestions) != 2 {
		t.Fatalf("suggestions = %+v, want 2", fixed.Suggestions)
	}
	if s := fixed.Suggestions[0]; s.Text != "INSERT OVERWRITE" || !sameRange(s.Range, rdRange{Start: rdPosition{5, 1}, End: &rdPosition{5, 12}}) {
		t.Errorf("replacement = %q at %s", s.Text, fmtRange(s.Range))
	}
	// An insertion (no End) is an empty range at its point.
	if s := fixed.Suggestions[1]; s.Text != "\n" || !sameRange(s.Range, rdRange{Start: rdPosition{5, 84}, End: &rdPosition{5, 84}}) {
		t.Errorf("insertion = %q at %s", s.Text, fmtRange(s.Range))
	}
}

// An edit in another file cannot be a suggestion on this diagnostic, and
// applying the rest of its fix alone would leave the SQL broken.
func TestFixLeavingTheFileIsDropped(t *testing.T) {
	res := withFix(reportertest.Result())
	plan := res.Findings[4].File
	res.Findings[3].Fixes[0].TextEdits[1] = analysis.TextEdit{Pos: plan.Pos(0), End: plan.Pos(1), NewText: []byte("x")}
	for _, d := range decodeLines(t, render(t, res)) {
		if len(d.Suggestions) > 0 {
			t.Errorf("%s has suggestions %+v", d.Code.Value, d.Suggestions)
		}
	}
}

func sameRange(a, b rdRange) bool {
	if a.Start != b.Start || (a.End == nil) != (b.End == nil) {
		return false
	}
	return a.End == nil || *a.End == *b.End
}

func fmtRange(r rdRange) string {
	s, _ := json.Marshal(r)
	return string(s)
}

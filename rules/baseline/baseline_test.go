package baseline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bflint/bflint/rules"
)

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "\n", "the file is empty"},
		{"syntax", "{\n  \"version\": 1,\n  \"findings\": [,]\n}", "not valid JSON: invalid character ',' looking for beginning of value at line 3, column 16 (byte 34)"},
		{"truncated", `{"version": 1, "findings": [`, "unexpected end of JSON input"},
		{"wrong type", `{"version": 1, "findings": {}}`, "not a bflint baseline: json: cannot unmarshal object into Go struct field Baseline.findings of type []baseline.Entry at line 1, column 28 (byte 28)"},
		{"no version", `{"findings": []}`, `it has no "version"`},
		{"future version", `{"version": 2, "findings": []}`, "baseline version 2 is not supported"},
		{"no fingerprint", `{"version": 1, "findings": [{"code": "BF601"}]}`, "finding 1 has no fingerprint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestNewApply checks the two halves against each other: New skips what is
// suppressed in source, the encoded document reads back, and Apply hides
// exactly the recorded findings and reports only covered unmatched entries.
func TestNewApply(t *testing.T) {
	bf601 := &rules.Rule{Code: "BF601"}
	bf201 := &rules.Rule{Code: "BF201"}
	findings := []rules.Finding{
		{Rule: bf601, Message: "no rollback"},
		{Rule: bf201, Message: "appends", Suppressed: &rules.Suppression{Justification: "staging table"}},
		{Rule: bf201, Message: "appends again"},
	}
	prints := []string{"p0", "p1", "p2"}
	b := New(findings, prints)
	if len(b.Findings) != 2 || b.Findings[0].Fingerprint != "p2" || b.Findings[1].Fingerprint != "p0" {
		t.Fatalf("recorded %+v, want the two active findings ordered by code", b.Findings)
	}
	var buf bytes.Buffer
	if err := b.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	read, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	read.Findings = append(read.Findings,
		Entry{Fingerprint: "gone", Code: "BF601", File: "linted"},
		Entry{Fingerprint: "elsewhere", Code: "BF601", File: "not linted"})

	later := []rules.Finding{findings[0], {Rule: bf201, Message: "new"}, findings[1]}
	stale := read.Apply(later, []string{"p0", "p9", "p1"}, "in baseline b.json", func(e Entry) bool { return e.File != "not linted" })
	if s := later[0].Suppressed; s == nil || !s.External || s.Justification != "in baseline b.json" {
		t.Errorf("recorded finding suppression %+v, want external with the baseline named", s)
	}
	if later[1].Suppressed != nil {
		t.Error("a finding absent from the baseline was suppressed")
	}
	if later[2].Suppressed.External {
		t.Error("an in-source suppression was turned into a baseline one")
	}
	var names []string
	for _, e := range stale {
		names = append(names, e.Fingerprint)
	}
	if got := strings.Join(names, ","); got != "p2,gone" {
		t.Errorf("stale entries %s, want p2,gone: matched ones and uncovered ones are not stale", got)
	}
}

// TestProcessor runs Apply as a step of the findings chain: the recorded
// finding is hidden as external, the new one stays, and the entry that no
// longer matches is handed back as stale.
func TestProcessor(t *testing.T) {
	bf601 := &rules.Rule{Code: "BF601"}
	old := []rules.Finding{{Rule: bf601, Message: "no rollback"}, {Rule: bf601, Message: "fixed since"}}
	b := New(old, rules.Fingerprints(old))
	res := &rules.Result{Findings: []rules.Finding{{Rule: bf601, Message: "no rollback"}, {Rule: bf601, Message: "new"}}}
	var stale []Entry
	if err := rules.Process(res, b.Processor("in baseline b.json", func(Entry) bool { return true }, &stale)); err != nil {
		t.Fatal(err)
	}
	if s := res.Findings[0].Suppressed; s == nil || !s.External || s.Justification != "in baseline b.json" {
		t.Errorf("recorded finding: suppression %+v, want external, in baseline b.json", s)
	}
	if res.Findings[1].Suppressed != nil {
		t.Error("a finding the baseline does not hold must stay active")
	}
	if len(stale) != 1 || stale[0].Message != "fixed since" {
		t.Errorf("stale = %+v, want the fixed finding's entry", stale)
	}
}

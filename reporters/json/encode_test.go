package json

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The hand-written encoder must write what encoding/json writes, byte for
// byte, for every shape of document and every kind of string.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	strange := []string{
		"", "plain text", `quote " and \ backslash`, "tab\tnewline\nreturn\r",
		"bell\a backspace\b formfeed\f nul\x00 esc\x1b del\x7f", "<html> & 'quotes'",
		"unicode é ü 日本 🙂", "line separators \u2028 \u2029", "invalid \xff\xfe utf-8 \xc3",
	}
	var docs []document
	docs = append(docs, document{Version: 1, Tool: tool{Name: "bflint", Version: "dev"}, Findings: []finding{}, Errors: []ierror{}})
	for _, s := range strange {
		docs = append(docs, document{
			Version: 1, Tool: tool{Name: "bflint", Version: s},
			Findings: []finding{
				{Code: "BF201", Name: "n", Severity: "error", Message: s, File: s, Line: 1, Column: 2, Fingerprint: "ab"},
				{Code: "BF002", Name: s, Severity: "warning", Message: "m", File: "f.sql", Line: 10, Column: 20, EndLine: 11, EndColumn: 3, Fingerprint: s, Analysis: "tokens"},
				{Code: "BF003", Line: 5, EndColumn: 7},
				{Code: "BF204", Line: 2, Column: 1, Fingerprint: "cd", Related: []related{{File: s, Line: 5, Column: 1, Message: s}, {File: "b.sql", Line: 9, Column: 3, Message: "m"}}},
			},
			Errors:  []ierror{{Code: s, File: "f", Message: s}},
			Summary: summary{Errors: 1, Warnings: 22, Infos: 333, Suppressed: 4444},
			Coverage: coverage{Statements: 3, Unparsed: []unparsed{
				{File: s, Line: 1, Column: 2, Read: "tokens", Construct: s, Statements: 1},
				{File: "f.sql", Line: 3, Column: 4, Read: "none", Construct: "x", Statements: 70},
			}, ProjectProblems: []projectProblem{{File: s, Line: 0, Message: s}, {File: "models/schema.yml", Line: 4, Message: "m"}}},
		})
		docs = append(docs, document{Version: 1, Tool: tool{Name: s}, Findings: []finding{}, Errors: []ierror{}, Coverage: coverage{Unparsed: []unparsed{}, ProjectProblems: []projectProblem{}}})
	}
	for i, doc := range docs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.encode(); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("document %d:\ngot:\n%s\nwant:\n%s", i, got, want.Bytes())
		}
	}
}

// BenchmarkEncode compares the encoder with encoding/json on a report of
// 2,000 findings, about the size of one over 1,000 SQL files.
func BenchmarkEncode(b *testing.B) {
	doc := document{Version: 1, Tool: tool{Name: "bflint", Version: "dev"}, Errors: []ierror{}}
	for i := range 2000 {
		doc.Findings = append(doc.Findings, finding{Code: "BF204", Name: "non-atomic-replace", Severity: "warning",
			Message: `DELETE then INSERT of "analytics.fct_orders" run outside one transaction: readers see the range empty in between`,
			File:    "backfills/bf_00001.sql", Line: i, Column: 1, EndLine: i + 3, EndColumn: 40, Fingerprint: "4dc807a7e4b48e3c801e8709602eb4dff5024a4e233304e3d8fc33a3c6b29fcd"})
	}
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			doc.encode()
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

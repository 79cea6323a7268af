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
			},
			Errors:  []ierror{{Code: s, File: "f", Message: s}},
			Summary: summary{Errors: 1, Warnings: 22, Infos: 333, Suppressed: 4444},
		})
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

package rules

import (
	"strings"
	"testing"
)

// TestHelp renders a rule's why and examples as SARIF help and bflint
// explain show them: labelled, fenced past any backticks in an example.
func TestHelp(t *testing.T) {
	d := Doc{
		Why:  "Why it matters.",
		Bad:  Example{Lang: "sql", Text: "SELECT 1;\n"},
		Good: Example{Lang: "yaml", Text: "doc: |\n  ```sql\n  x\n  ```"},
	}
	wantMD := "Why it matters.\n\nReported:\n\n```sql\nSELECT 1;\n```\n\nNot reported:\n\n````yaml\ndoc: |\n  ```sql\n  x\n  ```\n````"
	if d.HelpMarkdown() != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", d.HelpMarkdown(), wantMD)
	}
	wantText := "Why it matters.\n\nReported:\n    SELECT 1;\n\nNot reported:\n    doc: |\n      ```sql\n      x\n      ```"
	if d.HelpText() != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", d.HelpText(), wantText)
	}
	if !strings.HasPrefix(d.HelpText(), "Why") {
		t.Error("help text does not start with the rule's why")
	}
}

package rules

import (
	"fmt"
	"strings"
)

// Markdown renders the rule's documentation page; docs/rules/<CODE>.md is
// this text, kept in step by a test.
func (r *Rule) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", r.Code, r.Name)
	fmt.Fprintf(&b, "Default severity: **%s**.\n\n", r.Severity)
	fmt.Fprintf(&b, "%s.\n\n", strings.TrimSuffix(r.Doc.Title, "."))
	fmt.Fprintf(&b, "## Why it matters\n\n%s\n\n", r.Doc.Why)
	fmt.Fprintf(&b, "## Reported\n\n```%s\n%s\n```\n\n", r.Doc.Bad.Lang, strings.TrimRight(r.Doc.Bad.Text, "\n"))
	fmt.Fprintf(&b, "## Not reported\n\n```%s\n%s\n```\n\n", r.Doc.Good.Lang, strings.TrimRight(r.Doc.Good.Text, "\n"))
	fmt.Fprintf(&b, "## Suppressing\n\nWhen the finding does not apply, say why where it stands:\n\n```%s\n%s bflint:ignore %s <reason>\n```\n\n", r.Doc.Bad.Lang, commentMarker(r.Doc.Bad.Lang), r.Code)
	fmt.Fprintf(&b, "or turn the rule off for the project in `.bflint.yaml`:\n\n```yaml\nrules:\n  disable: [%s]\n```\n", r.Code)
	return b.String()
}

func commentMarker(lang string) string {
	if lang == "sql" {
		return "--"
	}
	return "#"
}

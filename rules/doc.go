package rules

import (
	"fmt"
	"strings"
)

// The two examples of a rule carry these labels wherever they are shown:
// the rule's page, bflint explain and SARIF rule help.
const (
	ReportedLabel    = "Reported"
	NotReportedLabel = "Not reported"
)

type labelledExample struct {
	label string
	Example
}

func (d Doc) examples() []labelledExample {
	var out []labelledExample
	for _, ex := range []labelledExample{{ReportedLabel, d.Bad}, {NotReportedLabel, d.Good}} {
		if ex.Text != "" {
			out = append(out, ex)
		}
	}
	return out
}

// HelpText is why the rule exists and its examples as plain text, each
// example indented under its label: bflint explain and SARIF help.text.
func (d Doc) HelpText() string {
	var b strings.Builder
	b.WriteString(d.Why)
	for _, ex := range d.examples() {
		body := strings.TrimRight(ex.Text, "\n")
		fmt.Fprintf(&b, "\n\n%s:\n    %s", ex.label, strings.ReplaceAll(body, "\n", "\n    "))
	}
	return b.String()
}

// HelpMarkdown is the same in Markdown, each example fenced: SARIF
// help.markdown.
func (d Doc) HelpMarkdown() string {
	var b strings.Builder
	b.WriteString(d.Why)
	for _, ex := range d.examples() {
		fmt.Fprintf(&b, "\n\n%s:\n\n%s", ex.label, fenced(ex.Example))
	}
	return b.String()
}

// fenced is an example as a fenced code block, the fence longer than any
// run of backticks inside it.
func fenced(ex Example) string {
	body := strings.TrimRight(ex.Text, "\n")
	longest, run := 0, 0
	for _, c := range body {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + ex.Lang + "\n" + body + "\n" + fence
}

// Markdown renders the rule's documentation page; docs/rules/<CODE>.md is
// this text, kept in step by a test.
func (r *Rule) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", r.Code, r.Name)
	fmt.Fprintf(&b, "Default severity: **%s**", r.Severity)
	if r.Severities() != r.Severity.String() {
		fmt.Fprintf(&b, "; **%s** in SQL files no plan names", r.StandaloneSeverity)
	}
	b.WriteString(".\n\n")
	fmt.Fprintf(&b, "%s.\n\n", strings.TrimSuffix(r.Doc.Title, "."))
	fmt.Fprintf(&b, "## Why it matters\n\n%s\n\n", r.Doc.Why)
	for _, ex := range r.Doc.examples() {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", ex.label, fenced(ex.Example))
	}
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

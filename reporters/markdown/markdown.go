// Package markdown renders a run as GitHub-flavoured Markdown: a headline
// with the counts, a table of findings per rule, and a table of the
// findings themselves. It is what the GitHub Action writes to the job
// summary, and fits a merge-request comment as well.
package markdown

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

// DefaultMaxFindings bounds the findings table: GitHub keeps at most 1 MiB
// of summary per step, and a reader stops long before that. The counts
// always cover every finding.
const DefaultMaxFindings = 200

// Options control the rendering.
type Options struct {
	// MaxFindings is how many findings the table lists; 0 means
	// DefaultMaxFindings.
	MaxFindings int
}

// Write renders the active findings of res; suppressed findings are only
// counted.
func Write(w io.Writer, res *rules.Result, opts Options) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return write(w, res, opts) })
}

// write writes what its exported form passes through reporters.WritePrintable.
func write(w io.Writer, res *rules.Result, opts Options) error {
	limit := opts.MaxFindings
	if limit <= 0 {
		limit = DefaultMaxFindings
	}
	var active []rules.Finding
	for _, f := range res.Findings {
		if f.Listed() {
			active = append(active, f)
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### bflint: %s\n\n", reporters.Summary(res))
	if line := reporters.CoverageLine(res.Coverage); line != "" {
		fmt.Fprintf(bw, "%s.\n\n", escape(line))
	}
	if line := reporters.ModelLine(res); line != "" {
		fmt.Fprintf(bw, "%s.\n\n", escape(line))
	}
	if len(active) > 0 {
		writeRuleTable(bw, active)
		writeFindingTable(bw, res, active, limit)
	}
	if len(res.Errors) > 0 {
		bw.WriteString("**Internal errors**: a rule crashed, so the findings above are incomplete. Please report this as a bflint bug.\n\n")
		for _, e := range res.Errors {
			msg, _, _ := strings.Cut(e.Message, "\n")
			fmt.Fprintf(bw, "- %s %s: %s\n", escape(reporters.RuleCode(e.Rule)), escape(reporters.FileName(e.File)), escape(msg))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// writeRuleTable lists each rule that fired with its count, most findings
// first, then by code.
func writeRuleTable(bw *bufio.Writer, active []rules.Finding) {
	bw.WriteString("| rule | severity | findings |\n|---|---|---:|\n")
	for _, r := range reporters.ByRule(active) {
		fmt.Fprintf(bw, "| %s %s | %s | %d |\n", ruleLink(r.Rule), escape(reporters.RuleName(r.Rule)), r.Severity, r.Count)
	}
	bw.WriteString("\n")
}

func writeFindingTable(bw *bufio.Writer, res *rules.Result, active []rules.Finding, limit int) {
	bw.WriteString("| severity | location | rule | message |\n|---|---|---|---|\n")
	for _, f := range active[:min(len(active), limit)] {
		start, _, _ := reporters.Span(res.Fset, f)
		loc := reporters.FileName(f.File)
		if start.Line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", loc, start.Line, start.Column)
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", reporters.EffectiveSeverity(f), escape(loc), ruleLink(f.Rule), messageCell(f))
	}
	if rest := len(active) - limit; rest > 0 {
		fmt.Fprintf(bw, "\n%s more not listed here; the step log and the SARIF and JSON reports have every finding.\n", reporters.Plural(rest, "finding"))
	}
	bw.WriteString("\n")
}

func ruleLink(r *rules.Rule) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("[%s](%s)", r.Code, r.URL())
}

// escaper makes text safe inside a table cell: no character starts
// Markdown or HTML markup, a pipe does not end the cell, and a line break
// stays inside it.
var escaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", "<br>", "\n", "<br>", "\r", "<br>",
)

func escape(s string) string { return escaper.Replace(s) }

// messageCell is the headline, and the help on a line of its own within
// the table cell.
func messageCell(f rules.Finding) string {
	if f.Help == "" {
		return escape(f.Message)
	}
	return escape(f.Message) + "<br>help: " + escape(f.Help)
}

package models

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

// WriteText writes the inventory as an aligned table, one model a line,
// closed by the summary line.
func WriteText(w io.Writer, doc Document) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return writeText(w, doc) })
}

// writeText writes what its exported form passes through reporters.WritePrintable.
func writeText(w io.Writer, doc Document) error {
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	if len(doc.Models) > 0 {
		fmt.Fprintln(tw, "MODEL\tBUILT\tKEY\tRE-RUN\tRANGE\tDECIDED AT")
	}
	for _, r := range doc.Models {
		at := "-"
		if r.RangeAt != nil {
			at = fmt.Sprintf("%s:%d", r.RangeAt.File, r.RangeAt.Line)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(r.Name), built(r), cell(strings.Join(r.UniqueKey, ",")), r.Rerun, r.Range, cell(at))
	}
	tw.Flush()
	fmt.Fprintln(bw, SummaryLine(doc))
	return bw.Flush()
}

// WriteMarkdown writes the inventory as a Markdown table with the reasons.
func WriteMarkdown(w io.Writer, doc Document) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return writeMarkdown(w, doc) })
}

// writeMarkdown writes what its exported form passes through reporters.WritePrintable.
func writeMarkdown(w io.Writer, doc Document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### bflint models: %s\n\n", md(SummaryLine(doc)))
	if len(doc.Models) > 0 {
		bw.WriteString("| model | built | key | re-run | range | decided at |\n|---|---|---|---|---|---|\n")
		for _, r := range doc.Models {
			at := ""
			if r.RangeAt != nil {
				at = fmt.Sprintf("`%s:%d`", strings.ReplaceAll(r.RangeAt.File, "`", "'"), r.RangeAt.Line)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s: %s | %s: %s | %s |\n", md(r.Name), md(built(r)), md(strings.Join(r.UniqueKey, ", ")),
				r.Rerun, md(r.RerunReason), r.Range, md(r.RangeReason), at)
		}
	}
	return bw.Flush()
}

// WriteJSON writes the inventory as one JSON document.
func WriteJSON(w io.Writer, doc Document) error { return reporters.WriteJSON(w, doc) }

// SummaryLine is the inventory's closing line: "412 dbt models: 380 can
// be backfilled by range, 31 only by a full refresh (clock 25, high-water
// mark 6), 1 appends on a re-run".
func SummaryLine(doc Document) string {
	s := doc.Summary
	if s.Models == 0 {
		line := "no model"
		if len(doc.Where) > 0 {
			line += " matches " + strings.Join(doc.Where, " ")
		}
		return line
	}
	line := reporters.ModelCounts(rules.ModelCounts{Models: s.Models, ByRange: s.ByRange, Clock: s.Clock, Watermark: s.Watermark, Unknown: s.Unknown, Append: s.Append})
	if len(doc.Where) > 0 {
		line += " (where " + strings.Join(doc.Where, " ") + ")"
	}
	return line
}

// built is the materialization, with the strategy of an incremental model.
func built(r Row) string {
	if r.Strategy == "" {
		return r.Materialized
	}
	return r.Materialized + "/" + r.Strategy
}

// cell keeps a table cell on its line: names come from the project's
// files, which may hold anything.
func cell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", " ", "\n", " ", "\r", " ",
)

func md(s string) string { return mdEscaper.Replace(s) }

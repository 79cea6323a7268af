package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bflint/bflint/rules"
)

// dialects is the order --stats lists them in.
var dialects = []string{"bigquery", "snowflake", "databricks", "dbt", "postgres"}

// maxStoppers is how many of the constructs that stopped the parser
// --stats lists.
const maxStoppers = 15

// maxUnparsedFiles is how many of the files with the most statements not
// parsed --stats names.
const maxUnparsedFiles = 10

// share is n as a percentage of the whole, one decimal.
func share(n, whole int) string {
	if whole == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(whole))
}

// writeStats prints, for --stats, how the run's SQL statements were read
// (rules.Coverage): one line for the run, one per dialect (each file's
// guess), and the constructs that stopped the parser most often, which
// say what to normalise next. Files are named by pathOf, as the text
// report names them.
func writeStats(w io.Writer, cov rules.Coverage, tokenReaders []string, pathOf func(string) string) error {
	if pathOf == nil {
		pathOf = func(name string) string { return name }
	}
	n := cov.Total()
	if n == 0 {
		_, err := fmt.Fprintln(w, "bflint: SQL coverage: no SQL statements")
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bflint: SQL coverage: %d statements in %d files: %d parsed (%s), %d read from tokens (%s), %d not read (%s)\n",
		n, cov.Files, cov.Parsed(), share(cov.Parsed(), n), cov.FromTokens(), share(cov.FromTokens(), n), cov.NotRead(), share(cov.NotRead(), n))
	const row = "  %-10s %6s %11s %8s %12s %9s\n"
	fmt.Fprintf(&b, row, "dialect", "files", "statements", "parsed", "from tokens", "not read")
	for _, d := range dialects {
		if c := cov.ByDialect[d]; c != nil {
			fmt.Fprintf(&b, row, d, fmt.Sprint(c.Files), fmt.Sprint(c.Total()),
				share(c.Parsed(), c.Total()), share(c.FromTokens(), c.Total()), share(c.NotRead(), c.Total()))
		}
	}
	if stoppers := cov.TopStoppers(maxStoppers); len(stoppers) > 0 {
		fmt.Fprintf(&b, "  statements read from tokens are checked by %s only; what stopped the parser, most often first:\n",
			strings.Join(rules.CodeGroups(tokenReaders), ", "))
		for _, s := range stoppers {
			fmt.Fprintf(&b, "  %6d  %s\n", s.Count, s.Construct)
		}
	}
	if files := cov.TopUnparsedFiles(maxUnparsedFiles); len(files) > 0 {
		b.WriteString("  files with the most statements not parsed (--format json lists each under coverage.unparsed):\n")
		for _, f := range files {
			fmt.Fprintf(&b, "  %6d  %s (%d from tokens, %d not read)\n", f.FromTokens+f.NotRead, pathOf(f.File), f.FromTokens, f.NotRead)
		}
	}
	writeMacroStats(&b, cov)
	if n := len(cov.ProjectProblems); n > 0 {
		fmt.Fprintf(&b, "  dbt project files not read as dbt reads them, their config and macros unknown to the rules: %d\n", n)
		for i, pr := range cov.ProjectProblems {
			if i == maxUnreadMacros {
				fmt.Fprintf(&b, "    and %d more\n", n-i)
				break
			}
			at := pathOf(pr.File)
			if pr.Line > 0 {
				at = fmt.Sprintf("%s:%d", at, pr.Line)
			}
			fmt.Fprintf(&b, "    %s: %s\n", at, pr.Msg)
		}
	}
	if cov.PythonQueries > 0 {
		fmt.Fprintf(&b, "  bigquery-etl: %d tables written by a Python query (query.py), whose writes bflint does not read\n", cov.PythonQueries)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxUnreadMacros is how many of the project macros that could not be
// read as SQL --stats names.
const maxUnreadMacros = 10

// writeMacroStats says what of the dbt projects' macros was read as SQL,
// what could not be and why, and how many models' incremental filters
// were therefore not judged.
func writeMacroStats(b *strings.Builder, cov rules.Coverage) {
	if cov.MacrosRead == 0 && len(cov.MacrosUnread) == 0 {
		return
	}
	fmt.Fprintf(b, "  project macros: %d calls read as SQL", cov.MacrosRead)
	if n := len(cov.MacrosUnread); n > 0 {
		fmt.Fprintf(b, "; %d macros not read", n)
	}
	if cov.FiltersUnread > 0 {
		fmt.Fprintf(b, "; the incremental filter of %d models is in one of them, so their re-run safety was not judged", cov.FiltersUnread)
	}
	b.WriteString("\n")
	names := make([]string, 0, len(cov.MacrosUnread))
	for name := range cov.MacrosUnread {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		if i == maxUnreadMacros {
			fmt.Fprintf(b, "    and %d more\n", len(names)-i)
			break
		}
		fmt.Fprintf(b, "    %s: %s\n", name, cov.MacrosUnread[name])
	}
}

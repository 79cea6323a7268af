package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/rules"
)

// dialects is the order --stats lists them in.
var dialects = []string{"bigquery", "snowflake", "databricks", "dbt", "postgres"}

// coverage counts how the rules read the statements of some SQL files.
type coverage struct {
	files      int
	statements [3]int // by sqlparse.Coverage
}

func (c *coverage) total() int { return c.statements[0] + c.statements[1] + c.statements[2] }

// share is n as a percentage of the whole, one decimal.
func share(n, whole int) string {
	if whole == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(whole))
}

// writeStats prints, for --stats, how many statements of the run's SQL
// files were parsed, analysed from their tokens, or not analysed: one line
// for the run, then one per dialect, which each file's guess
// (dialect.Guess) decides. A file several plans name counts once;
// each branch of a dbt {% if is_incremental() %} counts as a statement,
// since each is checked.
func writeStats(w io.Writer, units []*rules.Unit) error {
	byDialect := map[string]*coverage{}
	var all coverage
	seen := map[string]bool{}
	for _, u := range units {
		for _, f := range u.SQL {
			if seen[f.Source.Name] {
				continue
			}
			seen[f.Source.Name] = true
			d := dialect.Guess(string(f.Source.Content))
			c := byDialect[d]
			if c == nil {
				c = &coverage{}
				byDialect[d] = c
			}
			c.files++
			all.files++
			for _, st := range f.Parsed.Statements {
				k := st.Coverage()
				c.statements[k]++
				all.statements[k]++
			}
		}
	}
	n := all.total()
	if n == 0 {
		_, err := fmt.Fprintln(w, "bflint: SQL coverage: no SQL statements")
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bflint: SQL coverage: %d statements in %d files: %d parsed (%s), %d analysed from tokens (%s), %d not analysed (%s)\n",
		n, all.files,
		all.statements[sqlparse.CoverageParsed], share(all.statements[sqlparse.CoverageParsed], n),
		all.statements[sqlparse.CoverageTokens], share(all.statements[sqlparse.CoverageTokens], n),
		all.statements[sqlparse.CoverageNone], share(all.statements[sqlparse.CoverageNone], n))
	const row = "  %-10s %6s %11s %8s %12s %13s\n"
	fmt.Fprintf(&b, row, "dialect", "files", "statements", "parsed", "from tokens", "not analysed")
	for _, d := range dialects {
		if c := byDialect[d]; c != nil {
			fmt.Fprintf(&b, row, d, fmt.Sprint(c.files), fmt.Sprint(c.total()),
				share(c.statements[sqlparse.CoverageParsed], c.total()),
				share(c.statements[sqlparse.CoverageTokens], c.total()),
				share(c.statements[sqlparse.CoverageNone], c.total()))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

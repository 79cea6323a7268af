package validation

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// NotNumeric reports a check whose pass criterion is missing, is not a
// comparison with a number, or compares a column its query does not
// return.
var NotNumeric = &rules.Rule{
	Code:     "BF402",
	Name:     "validation-not-numeric",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A validation check has no pass criterion, or one that is not <expr> <op> <number>",
		Why: "A check without a stated threshold is read by whoever runs it, after the output exists, and it passes when the output looks plausible. " +
			"Writing the criterion as a comparison with a number before the run fixes what counts as wrong while nobody has seen the result yet, " +
			"and lets a script, not a mood, decide whether the publish goes ahead. " +
			"The left side must be what the check's query returns: a criterion on max_delta against a query that returns max_abs_delta_pct cannot be evaluated, " +
			"so bflint also reports a plain column name the query does not return, when every column of the query's last statement is named (no star, no unnamed expression).",
		Bad: rules.Example{Lang: "yaml", Text: `validation:
  checks:
    - name: totals
      sql: sql/validate_totals.sql
      pass: looks right
`},
		Good: rules.Example{Lang: "yaml", Text: `validation:
  checks:
    - name: totals
      sql: sql/validate_totals.sql
      pass: "max_abs_delta_pct <= 0.5"
`},
	},
	Run: func(pass *rules.Pass) error {
		v := pass.Plan.Validation
		if v == nil {
			return nil
		}
		for i, c := range v.Checks {
			if !c.Pass.Set {
				pass.Reportf(c.Key, "%s has no pass criterion: its result is judged by eye after the run, and a plausible wrong answer passes\nhelp: add pass, e.g. \"changed_rows = 0\"", checkName(i, c))
				continue
			}
			crit, err := parsePass(c.Pass.V)
			if err != nil {
				pass.Reportf(c.Pass.Key, "pass %q of %s is not <expr> <op> <number> (%v): nothing can decide mechanically whether the staged range may be published\nhelp: compare the query's result with a number, e.g. \"max_abs_delta_pct <= 0.5\"", c.Pass.V, checkName(i, c), err)
				continue
			}
			checkColumn(pass, i, c, crit)
		}
		return nil
	},
}

var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkColumn reports a criterion whose left side is a plain name the
// check's query does not return: the comparison then fails, or errors, on
// every run whatever the data. Silent when the query's columns cannot all
// be named (a star, an unnamed expression, a statement that did not parse)
// or the criterion is an expression.
func checkColumn(pass *rules.Pass, i int, c plan.Check, crit criterion) {
	if !plainName.MatchString(crit.Expr) {
		return
	}
	key := fmt.Sprintf("validation.checks[%d].sql", i)
	for _, f := range pass.Unit.SQL {
		if !f.Has(key) || f.Parsed == nil {
			continue
		}
		results := resultColumns(f.Parsed.Statements)
		if len(results) == 0 {
			return
		}
		for _, r := range results {
			if slices.Contains(r.columns, strings.ToLower(crit.Expr)) {
				return
			}
		}
		last := results[len(results)-1]
		returned := last.columns
		pass.Report(rules.Diagnostic{Diagnostic: analysis.Diagnostic{
			Pos: c.Pass.Key,
			Message: fmt.Sprintf("pass %q of %s compares %s, which its query %s does not return (it returns %s): the criterion cannot be evaluated on the result"+rules.HelpMarker+"compare a column the query returns, e.g. \"%s %s %s\", or name the result %s in the query",
				c.Pass.V, checkName(i, c), crit.Expr, c.SQL.V, strings.Join(returned, ", "), returned[0], crit.Op, crit.Number, crit.Expr),
			Related: []analysis.RelatedInformation{{Pos: f.Pos(last.start), Message: "the query whose columns the criterion is compared with"}},
		}})
		return
	}
}

// result is the last query of a check file (per Jinja variant): its
// output columns and where it starts.
type result struct {
	columns []string
	start   int
}

// resultColumns returns, for each variant of the file, the columns of its
// last statement, which is the check's result; nil when any of them
// cannot be read or named in full.
func resultColumns(statements []*sqlparse.Statement) []result {
	last := map[string]*sqlparse.Statement{}
	var variants []string
	for _, st := range statements {
		if _, seen := last[st.Variant]; !seen {
			variants = append(variants, st.Variant)
		}
		last[st.Variant] = st
	}
	var out []result
	for _, v := range variants {
		st := last[v]
		if st.Node == nil {
			return nil
		}
		cols := st.OutputColumns()
		if len(cols) == 0 || slices.Contains(cols, "*") || slices.Contains(cols, "") {
			return nil
		}
		out = append(out, result{columns: cols, start: st.Start})
	}
	return out
}

// checkName names a check in messages: by its name, else by its place.
func checkName(i int, c plan.Check) string {
	if c.Name.Set && c.Name.V != "" {
		return fmt.Sprintf("check %q", c.Name.V)
	}
	return fmt.Sprintf("check %d", i+1)
}

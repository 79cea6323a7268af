package validation

import (
	"fmt"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// NotNumeric reports a check whose pass criterion is missing or is not a
// comparison with a number.
var NotNumeric = &rules.Rule{
	Code:     "BF402",
	Name:     "validation-not-numeric",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A validation check has no pass criterion, or one that is not <expr> <op> <number>",
		Why: "A check without a stated threshold is read by whoever runs it, after the output exists, and it passes when the output looks plausible. " +
			"Writing the criterion as a comparison with a number before the run fixes what counts as wrong while nobody has seen the result yet, " +
			"and lets a script, not a mood, decide whether the publish goes ahead.",
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
			if _, err := parsePass(c.Pass.V); err != nil {
				pass.Reportf(c.Pass.Key, "pass %q of %s is not <expr> <op> <number> (%v): nothing can decide mechanically whether the staged range may be published\nhelp: compare the query's result with a number, e.g. \"max_abs_delta_pct <= 0.5\"", c.Pass.V, checkName(i, c), err)
			}
		}
		return nil
	},
}

// checkName names a check in messages: by its name, else by its place.
func checkName(i int, c plan.Check) string {
	if c.Name.Set && c.Name.V != "" {
		return fmt.Sprintf("check %q", c.Name.V)
	}
	return fmt.Sprintf("check %d", i+1)
}

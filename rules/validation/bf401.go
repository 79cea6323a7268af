package validation

import "github.com/bflint/bflint/rules"

// Missing reports a plan with no validation checks.
var Missing = &rules.Rule{
	Code:     "BF401",
	Name:     "validation-missing",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan has no validation checks",
		Why: "Without checks written before the run, validation becomes \"the numbers look right\", a test that passes on any plausibly shaped output, " +
			"a doubled one included. Checks decided after seeing the output are calibrated to it. " +
			"The plan has to say, before the first partition runs, which queries compare the staged range with its sources and with the current target, " +
			"and what result lets the publish go ahead.",
		Bad: rules.Example{Lang: "yaml", Text: `validation:
  # we will check the numbers after the run
`},
		Good: rules.Example{Lang: "yaml", Text: `validation:
  checks:
    - name: reconciliation
      sql: sql/validate_reconciliation.sql
      pass: "max_abs_delta_pct <= 0.5"
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		switch v := p.Validation; {
		case v == nil:
			pass.ReportAbsentf("plan %q has no validation section: the staged range of %q would be published with nothing deciding whether it is right\nhelp: add validation.checks, each with a query and a numeric pass criterion, before the run", p.ID.V, p.Target.V)
		case len(v.Checks) == 0:
			pass.Reportf(v.Key, "validation has no checks: the staged range of %q would be published with nothing deciding whether it is right\nhelp: add validation.checks, each with a query and a numeric pass criterion, before the run", p.Target.V)
		}
		return nil
	},
}

package files

import "github.com/bflint/bflint/rules"

// SuppressionUnjustified documents BF004. Its findings come from the
// driver, which is the only place that knows whether a directive matched a
// finding once every rule has run; Run has nothing to add on its own.
var SuppressionUnjustified = &rules.Rule{
	Code:     "BF004",
	Name:     "suppression-unjustified",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A bflint:ignore directive has no reason, names an unknown rule, or suppresses nothing",
		Why: "A suppression is a decision to accept a failure class in this backfill, and the plan is the record of that decision. " +
			"Without a reason the next reader cannot tell a considered exception from a silenced alarm. " +
			"A directive naming a rule that does not exist, or one that no longer matches anything, hides nothing today " +
			"and would silently hide a real finding tomorrow.",
		Bad: rules.Example{Lang: "yaml", Text: `# bflint:ignore BF601
bflint: 1
`},
		Good: rules.Example{Lang: "yaml", Text: `# bflint:ignore BF601 the table format keeps 90 days of snapshots; restore is documented in the runbook
bflint: 1
`},
	},
	Run: func(*rules.Pass) error { return nil },
}

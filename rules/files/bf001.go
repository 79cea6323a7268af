// Package files holds the rules about the files themselves: whether a plan
// reads, whether SQL parses, whether the files a plan names exist, and
// whether suppressions are justified.
package files

import "github.com/bflint/bflint/rules"

// Rules are the file family.
var Rules = []*rules.Rule{PlanInvalid, SQLUnparsed, MissingFile, SuppressionUnjustified, ConfigKeyUnknown}

// PlanInvalid reports what the plan parser could not accept.
var PlanInvalid = &rules.Rule{
	Code:     "BF001",
	Name:     "plan-invalid",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan is not valid: YAML syntax, unknown or duplicate keys, wrong types, impossible dates, unknown values, or answers still TODO",
		Why: "A plan that does not read is a plan nobody can execute the way it was written. " +
			"A misspelled key is worse than a missing one: the author believes the question is answered " +
			"(`rolback:` looks like a rollback) while every tool, and every reader who trusts the tools, sees nothing. " +
			"bflint reads plans strictly so that each answer is exactly where the format expects it. " +
			"A free-text answer left as `TODO` (or `TODO` and a note), as `bflint init` writes them, is reported too: " +
			"an owner, a reason or a restore time still TODO reads as answered to a skimming reviewer.",
		Bad: rules.Example{Lang: "yaml", Text: `bflint: 1
id: bf20260826_a
target: analytics.fct_orders
range:
  start: 2026-02-30        # February has no 30th
  end: 2026-06-30
rolback:                   # misspelled: the rollback is silently missing
  mechanism: restore_copy
`},
		Good: rules.Example{Lang: "yaml", Text: `bflint: 1
id: bf20260826_a
target: analytics.fct_orders
range:
  start: 2026-01-14
  end: 2026-06-30
rollback:
  mechanism: restore_copy
`},
	},
	Run: func(pass *rules.Pass) error {
		if err := pass.Unit.ReadError; err != nil {
			pass.Reportf(pass.Unit.File.Pos(0), "cannot read plan: %v", err)
			return nil
		}
		problems := pass.Plan.Problems
		for _, p := range problems[:min(len(problems), maxProblems)] {
			pass.Reportf(p.Pos, "%s", p.Message)
		}
		if more := len(problems) - maxProblems + pass.Plan.OmittedProblems; more > 0 && len(problems) > maxProblems {
			pass.Reportf(problems[maxProblems].Pos, "and %d more problems in this plan, not reported one by one: the plan is probably not meant to be read as one, or was generated wrong\nhelp: fix the %d above and lint it again", more, maxProblems)
		}
		return nil
	},
}

// maxProblems bounds the problems of one plan reported one by one: a file
// of a million unknown keys would otherwise be a million findings.
const maxProblems = 100

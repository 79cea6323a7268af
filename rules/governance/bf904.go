package governance

import "github.com/bflint/bflint/rules"

// ApprovalMissing reports a restatement that needs sign-off and has none.
var ApprovalMissing = &rules.Rule{
	Code:     "BF904",
	Name:     "approval-missing",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan requires approval but does not say who approved it",
		Why: "Whether a correction needs sign-off depends on who reads the data: a product analytics table can be fixed by the engineer who found the bug, " +
			"a table feeding financial or regulated reporting usually cannot. When the plan says approval is required, it is also the audit record " +
			"of who authorised restating that range; a required approval with no approver means the restatement would run unauthorised, " +
			"or be authorised somewhere nobody can find later.",
		Bad: rules.Example{Lang: "yaml", Text: `approval:
  required: true
`},
		Good: rules.Example{Lang: "yaml", Text: `approval:
  required: true
  approved_by: finance-controller
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		a := p.Approval
		if a == nil || !a.Required.Set || !a.Required.V || given(a.ApprovedBy) {
			return nil
		}
		pass.Reportf(a.Required.Key, "approval.required is true but approved_by is missing: the restatement of %q has no recorded authorisation, so it would run unapproved\nhelp: get the sign-off and set approval.approved_by", p.Target.V)
		return nil
	},
}

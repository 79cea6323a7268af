package governance

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// PIIUnhandled reports personal data recomputed without its protections.
var PIIUnhandled = &rules.Rule{
	Code:     "BF903",
	Name:     "pii-unhandled",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The data contains personal data, but the plan does not say how suppression and access grants are applied",
		Why: "A recompute reads history from the raw layer, which still holds people who have since asked to be erased or suppressed; " +
			"unless the suppression list is applied during the rebuild, they reappear in the corrected range. " +
			"The staged copy is a new relation, so it gets the schema's default grants rather than the target's classification and access rules, " +
			"and personal data becomes readable by whoever can read staging for as long as the copy lives.",
		Bad: rules.Example{Lang: "yaml", Text: `data:
  contains_pii: true
`},
		Good: rules.Example{Lang: "yaml", Text: `data:
  contains_pii: true
  suppression: sql/suppression.sql   # applied in the build
  grants: inherit_target             # staging copies the target's grants
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		d := p.Data
		if d == nil || !d.ContainsPII.Set || !d.ContainsPII.V {
			return nil
		}
		var missing, harm []string
		if !given(d.Suppression) {
			missing = append(missing, "suppression")
			harm = append(harm, "people who were erased or suppressed can reappear in the recomputed range")
		}
		if !given(d.Grants) {
			missing = append(missing, "grants")
			harm = append(harm, "the staged copy gets the schema's default access instead of the target's grants")
		}
		if len(missing) > 0 {
			pass.Reportf(d.ContainsPII.Key, "data.contains_pii is true for %q but the plan lacks %s: %s\nhelp: add %s", p.Target.V, strings.Join(missing, " and "), strings.Join(harm, ", and "), "data."+strings.Join(missing, " and data."))
		}
		return nil
	},
}

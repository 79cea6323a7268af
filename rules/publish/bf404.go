package publish

import (
	"fmt"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// ValidatesPublished reports a validation check that reads the target and
// nothing staged.
var ValidatesPublished = &rules.Rule{
	Code:     "BF404",
	Name:     "validates-published-data",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A validation check reads the target and no staging relation",
		Why: "Validation is a gate only when it runs on the staged recompute, before publish. A check that reads the target alone either runs " +
			"before publish, and then checks the old, wrong numbers, or after it, when consumers have already read what it was meant to stop, " +
			"and the values it would have compared against are overwritten. Point the check at staging; a check that compares staging " +
			"with the target (old against new, or a control period) reads both and is fine.",
		Bad: rules.Example{Lang: "sql", Text: `-- validation.checks[0].sql
SELECT COUNT(*) AS null_countries
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
  AND country IS NULL;
`},
		Good: rules.Example{Lang: "sql", Text: `SELECT COUNT(*) AS null_countries
FROM backfill_staging.fct_orders__bf20260826_a
WHERE country IS NULL;
`},
	},
	Run: func(pass *rules.Pass) error {
		v := pass.Plan.Validation
		if v == nil {
			return nil
		}
		files := pass.SQLFiles("validation.checks")
		for i, c := range v.Checks {
			key := fmt.Sprintf("validation.checks[%d].sql", i)
			for _, f := range files {
				if !f.Has(key) {
					continue
				}
				target, staged := false, false
				for _, st := range f.Parsed.Statements {
					if st.Node == nil {
						continue
					}
					for _, rel := range st.Reads() {
						target = target || pass.IsTarget(rel)
						staged = staged || pass.IsStaging(rel)
					}
				}
				if target && !staged {
					pass.Reportf(c.SQL.Key, "%s (%s) reads the target %q and no staging relation: before publish it checks the old data, after publish consumers have already read what it was meant to stop, so it gates nothing\nhelp: read %s instead, or compare it with the target", checkLabel(i, c), c.SQL.V, pass.Plan.Target.V, stagingLabel(pass.Plan))
				}
			}
		}
		return nil
	},
}

// checkLabel names a validation check in messages.
func checkLabel(i int, c plan.Check) string {
	if c.Name.Set && c.Name.V != "" {
		return fmt.Sprintf("check %q", c.Name.V)
	}
	return fmt.Sprintf("validation.checks[%d]", i)
}

// stagingLabel names where the recompute is staged, for messages that send
// the reader there.
func stagingLabel(p *plan.Plan) string {
	if p.Staging != nil && p.Staging.Relation.Set && p.Staging.Relation.V != "" {
		return fmt.Sprintf("the staging relation %q", p.Staging.Relation.V)
	}
	return "the staging relation"
}

package publish

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// Missing reports a plan that does not say how the correction is published.
var Missing = &rules.Rule{
	Code:     "BF501",
	Name:     "publish-missing",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan has no publish section, or the publish lacks its sql or mechanism",
		Why: "A publish left implicit happens partition by partition as each run finishes, and consumers spend the length of the run " +
			"reading a range that is part old logic and part new. Stating the mechanism (a merge, a partition or snapshot swap) and the statement " +
			"that performs it makes the moment the live table changes one reviewable operation, and is what the rollback has to undo.",
		Bad: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  # how, and with which statement?
`},
		Good: rules.Example{Lang: "yaml", Text: `publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publish.sql
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		pub := p.Publish
		if pub == nil {
			pass.ReportAbsentf("plan %q has no publish section: nothing says how the staged range reaches %q, so it tends to land partition by partition and readers see a half-corrected range\nhelp: add publish with its mode, mechanism and sql", p.ID.V, p.Target.V)
			return nil
		}
		// A mechanism the parser rejected is written, just misspelled: BF001
		// reports it, and calling it missing would point at the wrong mistake.
		var missing []string
		if strings.TrimSpace(pub.SQL.V) == "" {
			missing = append(missing, "sql")
		}
		if strings.TrimSpace(pub.Mechanism.V) == "" {
			missing = append(missing, "mechanism")
		}
		if len(missing) > 0 {
			pass.Reportf(pub.Key, "publish lacks %s: the one operation that changes %q is not written down, so it can be neither reviewed nor undone\nhelp: state the mechanism and the statement that performs it", strings.Join(missing, " and "), p.Target.V)
		}
		return nil
	},
}

package downstream

import (
	"errors"
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/rules"
)

// UnknownNode reports plan names that denote no node of the manifest, or
// several.
var UnknownNode = &rules.Rule{
	Code:     "BF803",
	Name:     "unknown-node",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The target or a downstream entry is not a node of the dbt manifest",
		Why: "Everything bflint says about what a correction leaves stale starts from the plan's names: the target, and the models listed " +
			"to rebuild, notify or skip. A misspelt target silences every downstream check, because nothing is derived from a node that does not exist; " +
			"a misspelt rebuild entry promises a rebuild that dbt will refuse to run, or that quietly selects nothing, while the model it meant stays stale. " +
			"A name that fits several nodes (the same model name in two packages) leaves the plan's meaning to chance. " +
			"Write each name as a unique_id, a model name or a relation the manifest knows.",
		Bad: rules.Example{Lang: "yaml", Text: `target: fct_orders
downstream:
  rebuild:
    - revenue_dialy   # a typo: dbt has no such model
`},
		Good: rules.Example{Lang: "yaml", Text: `target: fct_orders
downstream:
  rebuild:
    - model.shop.revenue_daily
`},
	},
	Run: func(pass *rules.Pass) error {
		l := lookupOf(pass)
		if l == nil {
			return nil
		}
		p := pass.Plan
		check := func(pos token.Pos, what, name, consequence string) {
			if strings.TrimSpace(name) == "" {
				return
			}
			if _, err := l.resolve(name); err != nil {
				pass.Reportf(pos, "%s", unknownMessage(what, name, consequence, err))
			}
		}
		if p.Target.Set {
			check(p.Target.At(), "target", p.Target.V, "nothing derived from it can be checked")
		}
		d := downstreamOf(p)
		for _, it := range d.Rebuild.Items {
			check(it.At(), "downstream.rebuild entry", it.V, "the rebuild it promises cannot be checked, and the model it meant may stay stale")
		}
		for _, it := range d.Notify.Items {
			check(it.At(), "downstream.notify entry", it.V, "the readers it meant to tell cannot be checked")
		}
		for _, s := range d.Skip {
			check(s.Node.At(), "downstream.skip entry", s.Node.V, "it waives nothing")
		}
		return nil
	},
}

func unknownMessage(what, name, consequence string, err error) string {
	var nf *lineage.NotFoundError
	var amb *lineage.AmbiguousError
	switch {
	case errors.As(err, &nf):
		msg := fmt.Sprintf("%s %q is not in the dbt manifest, so %s", what, name, consequence)
		if near := nf.Suggestion(); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return msg
	case errors.As(err, &amb):
		const listed = 5
		quoted := make([]string, 0, listed)
		for _, c := range amb.Candidates[:min(len(amb.Candidates), listed)] {
			quoted = append(quoted, strconv.Quote(c))
		}
		list := strings.Join(quoted, ", ")
		if more := len(amb.Candidates) - listed; more > 0 {
			list += fmt.Sprintf(" and %d more", more)
		}
		return fmt.Sprintf("%s %q is ambiguous: it names %s, so which one the plan means is left to chance\nhelp: write the unique_id", what, name, list)
	}
	return fmt.Sprintf("%s %q cannot be resolved: %v", what, name, err)
}

package rerun

import (
	"strconv"
	"strings"

	"github.com/bflint/bflint/rules"
)

// MergeKeyUnchecked reports a merge whose key is not named or not proven
// unique.
var MergeKeyUnchecked = &rules.Rule{
	Code:     "BF202",
	Name:     "merge-key-unchecked",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A merge without a named key and a query that proves it unique",
		Why: "A merge converges on re-run only when every staged row matches at most one target row and the other way round. " +
			"That is an assumption about the data, and a key that is nearly unique is worse than none: " +
			"two different rows that share it are merged into one, or a single source row updates several target rows, " +
			"and the result changes from one run to the next. The key has to be written down and checked against the staged range " +
			"before the publish, with a query that returns the duplicates (GROUP BY the key HAVING COUNT(*) > 1).",
		Bad: rules.Example{Lang: "yaml", Text: `rerun:
  write: merge           # on which columns, and are they unique?
`},
		Good: rules.Example{Lang: "yaml", Text: `rerun:
  write: merge
  key: [order_id]
  uniqueness_check: sql/assert_unique.sql   # returns rows when order_id repeats
`},
	},
	Run: func(pass *rules.Pass) error {
		r := pass.Plan.Rerun
		if r == nil || !r.Write.Set || r.Write.V != "merge" {
			return nil
		}
		hasKey := len(r.Key.Items) > 0
		hasCheck := r.UniquenessCheck.Set && strings.TrimSpace(r.UniquenessCheck.V) != ""
		target := pass.Plan.Target.V
		switch {
		case !hasKey && !hasCheck:
			pass.Reportf(r.Write.Key, "rerun.write is merge with no rerun.key and no rerun.uniqueness_check: a merge into %q is only idempotent on a unique key, and nothing names the key or proves it unique; list the key columns in rerun.key and add a query that returns duplicate keys as rerun.uniqueness_check", target)
		case !hasKey:
			pass.Reportf(r.Write.Key, "rerun.write is merge with no rerun.key: nothing says which columns the merge into %q matches on, and a merge is only idempotent on a unique key; list them in rerun.key", target)
		case !hasCheck:
			pass.Reportf(r.Write.Key, "rerun.write is merge on %s with no rerun.uniqueness_check: nothing proves the key unique in staging, and a merge into %q on a key that repeats merges different rows and changes between runs; add a query that returns duplicate keys as rerun.uniqueness_check", quoteList(r.Key.Values()), target)
		}
		return nil
	},
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "(" + strings.Join(q, ", ") + ")"
}

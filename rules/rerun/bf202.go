package rerun

import (
	"strconv"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
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
			"before the publish, with a query that returns the duplicates (GROUP BY the key HAVING COUNT(*) > 1). " +
			"A publish written as MERGE or INSERT ... ON CONFLICT ... DO UPDATE is a merge whatever rerun.write says, " +
			"except a MERGE ... ON FALSE that deletes with WHEN NOT MATCHED BY SOURCE: it matches no row, so it replaces the range it deletes with every staged row, and has no key to check.",
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
		hasKey := r != nil && len(columnSet(r.Key.Values())) > 0
		hasCheck := r != nil && r.UniquenessCheck.Set && strings.TrimSpace(r.UniquenessCheck.V) != ""
		target := pass.Plan.Target.V
		if r != nil && r.Write.Set && r.Write.V == "merge" {
			switch {
			case !hasKey && !hasCheck:
				pass.Reportf(r.Write.Key, "rerun.write is merge with no rerun.key and no rerun.uniqueness_check: a merge into %q is only idempotent on a unique key, and nothing names the key or proves it unique\nhelp: list the key columns in rerun.key and add a query that returns duplicate keys as rerun.uniqueness_check", target)
			case !hasKey:
				pass.Reportf(r.Write.Key, "rerun.write is merge with no rerun.key: nothing says which columns the merge into %q matches on, and a merge is only idempotent on a unique key\nhelp: list them in rerun.key", target)
			case !hasCheck:
				pass.Reportf(r.Write.Key, "rerun.write is merge on %s with no rerun.uniqueness_check: nothing proves the key unique in staging, and a merge into %q on a key that repeats merges different rows and changes between runs\nhelp: add a query that returns duplicate keys as rerun.uniqueness_check", quoteList(r.Key.Values()), target)
			}
		} else if !hasKey || !hasCheck {
			reportUncheckedMerges(pass, hasKey, hasCheck)
		}
		if hasKey && hasCheck {
			checkUniquenessQuery(pass, r.Key.Values())
		}
		return nil
	},
}

// reportUncheckedMerges reports publish SQL that merges when the plan does
// not say so; when rerun.write is merge, the plan finding already covers it.
func reportUncheckedMerges(pass *rules.Pass, hasKey, hasCheck bool) {
	missing := "no rerun.key and no rerun.uniqueness_check"
	switch {
	case hasKey:
		missing = "no rerun.uniqueness_check"
	case hasCheck:
		missing = "no rerun.key"
	}
	for _, f := range pass.SQLFiles("publish.sql") {
		for _, st := range f.Parsed.Statements {
			w, ok := st.Write()
			if !ok {
				continue
			}
			var how string
			switch {
			case w.Kind == fact.WriteMerge && w.Replaces:
				continue // replaces the range it deletes; there is no key to merge on
			case w.Kind == fact.WriteMerge:
				how = "MERGE"
			case w.Kind == fact.WriteInsertOnConflict && w.DoUpdate:
				how = "INSERT ... ON CONFLICT DO UPDATE"
			default:
				continue
			}
			pass.Reportf(f.Pos(st.Start), "%s into %q with %s in the plan: the merge is only idempotent on a unique key, and nothing names that key or proves it unique in staging\nhelp: list the key columns in rerun.key and add a query that returns duplicate keys as rerun.uniqueness_check", how, w.Target.Name(), missing)
		}
	}
}

// checkUniquenessQuery reports a rerun.uniqueness_check that does not return
// the duplicates of exactly the key. The shape may sit at any depth, since
// checks often count the duplicates in an outer query.
func checkUniquenessQuery(pass *rules.Pass, key []string) {
files:
	for _, f := range pass.SQLFiles("rerun.uniqueness_check") {
		var first *sqlparse.Statement
		var groupedBy []string
		groupsKey := false
		for _, st := range f.Parsed.Statements {
			if st.Node == nil {
				continue files // BF002 reports it; what it checks is unknown
			}
			if first == nil || st.Start < first.Start {
				first = st
			}
			for _, sel := range st.Selects() {
				cols, ok := st.GroupBy(sel)
				if !ok {
					continue
				}
				if sameColumns(cols, key) {
					if sqlparse.HavingCountGreaterThanOne(sel) {
						continue files
					}
					groupsKey = true
				} else if groupedBy == nil {
					groupedBy = cols
				}
			}
		}
		if first == nil {
			continue
		}
		var what string
		switch {
		case groupsKey:
			what = "groups by the key but its HAVING is not COUNT(*) > 1, so it does not return exactly the duplicated keys"
		case groupedBy != nil:
			what = "groups by " + quoteList(columnSet(groupedBy)) + ", not by the key, so it proves some other columns unique"
		default:
			what = "has no GROUP BY the key with HAVING COUNT(*) > 1, so it does not return the duplicated keys"
		}
		pass.Reportf(f.Pos(first.Start), "the uniqueness check for rerun.key %s %s; the merge into %q relies on that key being unique: select the key columns GROUP BY exactly them HAVING COUNT(*) > 1", quoteList(columnSet(key)), what, pass.Plan.Target.V)
	}
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "(" + strings.Join(q, ", ") + ")"
}

package rerun

import (
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// MergeKeyMismatch reports a publish that matches rows on other columns
// than the key the plan proves unique.
var MergeKeyMismatch = &rules.Rule{
	Code:     "BF206",
	Name:     "merge-key-mismatch",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The MERGE ON or ON CONFLICT columns are not rerun.key",
		Why: "The uniqueness check proves rerun.key unique; the merge is idempotent only on the columns it actually matches on. " +
			"When the two differ, the check proves the wrong thing: matching on fewer columns merges rows the key tells apart, " +
			"matching on more inserts a second copy of a row whenever one of the extra columns changed. " +
			"Only columns compared between target and source count; a comparison with a constant or a range restricts the rows, " +
			"it does not identify them.",
		Bad: rules.Example{Lang: "sql", Text: `-- rerun.key: [order_id, line_no]
MERGE INTO analytics.fct_order_lines AS t
USING backfill_staging.fct_order_lines__bf20260826_a AS s
  ON t.order_id = s.order_id          -- line_no is not matched
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;
`},
		Good: rules.Example{Lang: "sql", Text: `-- rerun.key: [order_id, line_no]
MERGE INTO analytics.fct_order_lines AS t
USING backfill_staging.fct_order_lines__bf20260826_a AS s
  ON t.order_id = s.order_id AND t.line_no = s.line_no
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;
`},
	},
	Run: func(pass *rules.Pass) error {
		r := pass.Plan.Rerun
		if r == nil {
			return nil
		}
		key := columnSet(r.Key.Values())
		if len(key) == 0 {
			return nil
		}
		for _, f := range pass.SQLFiles("publish.sql") {
			for _, st := range f.Parsed.Statements {
				if how, target, cols := matchColumns(st); len(cols) > 0 && !sameColumns(cols, key) {
					pass.Reportf(f.Pos(st.Start), "%s into %q matches rows on %s, but rerun.key is %s: the uniqueness check proves a key the publish does not use, so rows can be merged together or inserted twice\nhelp: make the publish match on exactly rerun.key, or correct rerun.key",
						how, target.Name(), quoteList(columnSet(cols)), quoteList(key))
				}
			}
		}
		return nil
	},
}

// matchColumns returns the target columns a statement identifies rows by:
// those a MERGE ON equates with a source column, or the ON CONFLICT list.
func matchColumns(st *sqlparse.Statement) (how string, target sqlname.Relation, cols []string) {
	if m, ok := st.Merge(); ok {
		for _, eq := range sqlparse.Equalities(m.On, m.TargetAlias, m.SourceAlias) {
			cols = append(cols, eq[0])
		}
		return "MERGE", m.Target, cols
	}
	for _, w := range st.Writes() {
		if w.Kind == fact.WriteInsertOnConflict && len(w.ConflictColumns) > 0 {
			return "INSERT ... ON CONFLICT", w.Target, w.ConflictColumns
		}
	}
	return "", sqlname.Relation{}, nil
}

package rerun

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// MergeUnboundedInsert reports a MERGE that inserts whatever the source
// holds, in or out of the range.
var MergeUnboundedInsert = &rules.Rule{
	Code:     "BF203",
	Name:     "merge-unbounded-insert",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A MERGE inserts unmatched source rows without bounding them to the range",
		Why: "A MERGE that does not find a target row for a source row inserts it. If the staged data holds keys outside the range " +
			"(a build filtered on the wrong column, late rows, a staging table reused from another run), they are inserted into partitions " +
			"the plan never meant to touch, and the range silently widens: validation looked at the range, rollback restores the range, " +
			"and the extra rows stay. Filter the USING source on the partition column with both a lower and an upper bound, " +
			"or guard the insert with a range condition in WHEN NOT MATCHED AND ... THEN INSERT. A range predicate in ON is not enough: " +
			"it limits which rows match, so a source row outside it matches nothing and is inserted. " +
			"An equality to one value, a literal or the run's parameter (= @submission_date), bounds the source to one partition, " +
			"and a temporary table filled earlier in the file from a bounded query is as bounded as that query; " +
			"a temporary table filled by a statement bflint read only from its tokens is not judged. " +
			"Only range.partition_column counts, so only a plan's SQL is read: a standalone SQL file has no range to widen.",
		Bad: rules.Example{Lang: "sql", Text: `MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s   -- every staged row
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
`},
		Good: rules.Example{Lang: "sql", Text: `MERGE INTO analytics.fct_orders AS t
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_a
  WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
) AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
`},
	},
	Run: func(pass *rules.Pass) error {
		// Without a plan there is no range to widen (rules.md, Standalone SQL).
		if pass.Plan == nil {
			return nil
		}
		if _, _, ok := pass.Plan.Bounds(); !ok {
			return nil
		}
		rb := rangeBounds{pass: pass}
		for _, f := range pass.Unit.SQL {
			filled := boundedTemporaries{}
			for _, st := range f.Parsed.Statements {
				if m, ok := st.Merge(); ok {
					checkMergeInsert(pass, f, st, m, rb, filled)
				}
				filled.record(pass, st, rb)
			}
		}
		return nil
	},
}

func checkMergeInsert(pass *rules.Pass, f *rules.SQLFile, st *sqlparse.Statement, m sqlparse.Merge, rb rangeBounds, filled boundedTemporaries) {
	if len(m.NotMatchedInsert) == 0 {
		return
	}
	if st.SourceLimited(m, rb.twoSided, filled.holds) {
		return
	}
	for _, ins := range m.NotMatchedInsert {
		if !rb.twoSided(sqlparse.Bounds(st, ins.Cond)) {
			source := "the USING query"
			if m.SourceRelation != nil {
				source = fmt.Sprintf("%q", m.SourceRelation.Name())
			}
			column := "the partition column"
			if c := planPartitionColumn(pass); c != "" {
				column = fmt.Sprintf("%q", c)
			}
			onOnly := ""
			if rb.any(sqlparse.Bounds(st, m.On)) {
				onOnly = " The range predicate in ON only limits which rows match and are updated: a source row outside it matches nothing and is inserted."
			}
			pass.Reportf(f.Pos(m.Offset), "MERGE into %q inserts every unmatched row of %s, which is not filtered to a range of %s: staged keys outside the range are inserted and silently widen it.%s\nhelp: filter the USING source with a lower and an upper bound on %s, or insert only WHEN NOT MATCHED AND the row is in the range",
				m.Target.Name(), source, column, onOnly, column)
			return
		}
	}
}

// boundedTemporaries are the temporary tables the statements read so far
// created, by name in lower case, with what filled them. A MERGE reading
// one is as bounded as the query that filled it; where bflint could not
// read that query (the statement was read from its tokens) it cannot
// tell, and the rule stays silent.
type boundedTemporaries map[string]temporaryFill

type temporaryFill int

const (
	fillUnbounded temporaryFill = iota
	fillBounded
	fillUnread
)

func (bt boundedTemporaries) record(pass *rules.Pass, st *sqlparse.Statement, rb rangeBounds) {
	ws, fromTokens := pass.Writes(st)
	for _, w := range ws {
		if !w.Temporary {
			continue
		}
		name := strings.ToLower(w.Target.Name())
		switch {
		case fromTokens:
			bt[name] = fillUnread
		case st.QueryLimited(rb.twoSided, bt.holds):
			bt[name] = fillBounded
		default:
			bt[name] = fillUnbounded
		}
	}
}

// holds reports whether rel is a temporary table filled from a bounded
// query, or from one bflint could not read.
func (bt boundedTemporaries) holds(rel sqlname.Relation) bool {
	fill, ok := bt[strings.ToLower(rel.Name())]
	return ok && fill != fillUnbounded
}

// rangeBounds decides whether predicates confine rows to a range of the
// partition column.
type rangeBounds struct {
	pass *rules.Pass
}

// counts reports whether a bounded column is the plan's partition column.
func (rb rangeBounds) counts(col string) bool { return rb.pass.IsPartitionColumn(col) }

// twoSided reports whether bs hold a lower and an upper bound on one
// partition column; an equality is both.
func (rb rangeBounds) twoSided(bs []fact.Bound) bool {
	lower, upper := map[string]bool{}, map[string]bool{}
	for _, b := range bs {
		switch b.Op {
		case ">", ">=":
			lower[b.Column] = true
		case "<", "<=":
			upper[b.Column] = true
		case "=":
			lower[b.Column], upper[b.Column] = true, true
		}
	}
	for col := range lower {
		if upper[col] && rb.counts(col) {
			return true
		}
	}
	return false
}

// any reports whether bs bound a partition column at all.
func (rb rangeBounds) any(bs []fact.Bound) bool {
	for _, b := range bs {
		if rb.counts(b.Column) {
			return true
		}
	}
	return false
}

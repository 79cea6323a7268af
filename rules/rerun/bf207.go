package rerun

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// PartitionColumnDropped reports rows written without the column that
// places them in a partition.
var PartitionColumnDropped = &rules.Rule{
	Code:     "BF207",
	Name:     "partition-column-dropped",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A MERGE INSERT column list, or the build that fills staging, leaves out the partition column",
		Why: "A row's partition is decided by its partition column. When the build never selects that column into staging, or the MERGE " +
			"that publishes lists the columns it inserts and leaves it out, inserted rows get NULL or a default there: they land in no " +
			"partition of the range, outside every check and every rollback that works by partition, and partition filters never find them. " +
			"Filtering the source on the column is not enough; it has to be carried through to the inserted row. " +
			"On SQL that no plan names, the partition column is unknown, so only a MERGE whose INSERT list leaves out a partition-like " +
			"column (config partition_columns) that the same MERGE matches or updates on the target is reported. " +
			"SELECT * and INSERT * cannot be judged and are not reported.",
		Bad: rules.Example{Lang: "sql", Text: `-- range.partition_column: order_date
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_ts, amount_minor)
  VALUES (s.order_id, s.order_ts, s.amount_minor);
`},
		Good: rules.Example{Lang: "sql", Text: `-- range.partition_column: order_date
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, order_ts, amount_minor)
  VALUES (s.order_id, s.order_date, s.order_ts, s.amount_minor);
`},
	},
	Run: func(pass *rules.Pass) error {
		column := planPartitionColumn(pass)
		for _, f := range pass.Unit.SQL {
			for _, st := range f.Parsed.Statements {
				m, ok := st.Merge()
				switch {
				case !ok:
				case column != "":
					reportMergeWithout(pass, f, m, column)
				case !pass.IsStaging(m.Target):
					reportMergeDropsPartitionLike(pass, f, st, m)
				}
			}
		}
		if column == "" {
			return nil
		}
		for _, f := range pass.SQLFiles("staging.build") {
			for _, st := range f.Parsed.Statements {
				reportBuildWithout(pass, f, st, column)
			}
		}
		return nil
	},
}

// reportMergeWithout reports a MERGE whose INSERT column list leaves out
// the plan's partition column; a clause with no list, or INSERT *, fills
// every column and cannot be judged.
func reportMergeWithout(pass *rules.Pass, f *rules.SQLFile, m sqlparse.Merge, column string) {
	for _, ins := range m.NotMatchedInsert {
		if ins.AllColumns || ins.Columns == nil || hasColumn(ins.Columns, column) {
			continue
		}
		pass.Reportf(f.Pos(m.Offset), "MERGE into %q inserts rows without %q (range.partition_column): the INSERT column list %s leaves it out, so inserted rows land in no partition of the range\nhelp: add %q to the INSERT columns and values",
			m.Target.Name(), column, quoteList(ins.Columns), column)
		return
	}
}

// buildWrites are the writes that fill staging from a query.
var buildWrites = map[fact.WriteKind]bool{
	fact.WriteCreateTableAs:    true,
	fact.WriteCreateOrReplace:  true,
	fact.WriteInsert:           true,
	fact.WriteInsertOnConflict: true,
	fact.WriteInsertOverwrite:  true,
	fact.WriteReplaceWhere:     true,
}

// reportBuildWithout reports a build that fills staging without the
// partition column: the column list it names, else the columns its query
// outputs. A SELECT * may carry the column and stays unjudged.
func reportBuildWithout(pass *rules.Pass, f *rules.SQLFile, st *sqlparse.Statement, column string) {
	for _, w := range st.Writes() {
		if !buildWrites[w.Kind] || !pass.IsStaging(w.Target) {
			continue
		}
		cols := w.Columns
		if cols == nil {
			cols = st.OutputColumns()
		}
		if len(cols) == 0 || hasColumn(cols, "*") || hasColumn(cols, column) {
			continue
		}
		pass.Reportf(f.Pos(w.Target.Offset), "the build fills %q without %q (range.partition_column): staged rows carry no partition, so the publish cannot place them in the range\nhelp: select %q into staging",
			w.Target.Name(), column, column)
	}
}

// reportMergeDropsPartitionLike is the standalone form: with no plan to
// name the partition column, a MERGE that matches or updates the target
// on a partition-like column shows the target has one, and an INSERT list
// without any partition-like column then drops it.
func reportMergeDropsPartitionLike(pass *rules.Pass, f *rules.SQLFile, st *sqlparse.Statement, m sqlparse.Merge) {
	var used []string
	for _, c := range targetColumns(st, m) {
		if pass.IsPartitionColumn(c) && !hasColumn(used, c) {
			used = append(used, c)
		}
	}
	if len(used) == 0 {
		return
	}
	for _, ins := range m.NotMatchedInsert {
		if ins.AllColumns || ins.Columns == nil {
			continue
		}
		dropped := true
		for _, c := range ins.Columns {
			if pass.IsPartitionColumn(c) {
				dropped = false
			}
		}
		if dropped {
			pass.Reportf(f.Pos(m.Offset), "MERGE into %q matches or updates the target on %s but inserts rows without it: the INSERT column list %s leaves it out, so inserted rows land in no partition\nhelp: add %s to the INSERT columns and values",
				m.Target.Name(), quoteList(used), quoteList(ins.Columns), strings.Trim(quoteList(used), "()"))
			return
		}
	}
}

// targetColumns are the target columns a MERGE names outside its INSERT
// list: equated or bounded in ON, or set by an UPDATE.
func targetColumns(st *sqlparse.Statement, m sqlparse.Merge) []string {
	var cols []string
	for _, eq := range sqlparse.Equalities(m.On, m.TargetAlias, m.SourceAlias) {
		cols = append(cols, eq[0])
	}
	for _, b := range sqlparse.Bounds(st, m.On) {
		if strings.EqualFold(lastPart(b.Qualifier), m.TargetAlias) {
			cols = append(cols, b.Column)
		}
	}
	return append(cols, m.UpdatedColumns...)
}

func lastPart(dotted string) string { return dotted[strings.LastIndexByte(dotted, '.')+1:] }

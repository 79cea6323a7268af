package daterange

import (
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
)

// MonthOffset reports a bqetl entry of a month-partitioned table whose
// metadata sets a partition offset the entry does not ignore.
var MonthOffset = &rules.Rule{
	Code:     "BF107",
	Name:     "partition-offset-unsupported",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A bqetl backfill of a month-partitioned table applies a date_partition_offset bqetl cannot apply",
		Why: "bqetl turns each backfill date into the partition it writes by adding the table's scheduling.date_partition_offset, " +
			"and it can do that only for daily partitions: for a table partitioned by month it raises NotImplementedError " +
			"when it computes the partitions, so the entry's run or its completion stops partway, with some months in staging " +
			"and none, or some, copied to the table. Set ignore_date_partition_offset: true on the entry (the run dates are then " +
			"the months themselves), or backfill the daily table the monthly one is built from. " +
			"Only bqetl entries are checked: a bflint plan names its partitions directly.",
		Bad: rules.Example{Lang: "yaml", Text: `# metadata.yaml: time_partitioning.type: month, scheduling.date_partition_offset: -1
2026-03-02:
  start_date: 2025-01-01
  end_date: 2026-02-01
  reason: Recompute monthly totals after the currency fix.
  watchers: [analyst@example.com]
  status: Initiate
`},
		Good: rules.Example{Lang: "yaml", Text: `2026-03-02:
  start_date: 2025-01-01
  end_date: 2026-02-01
  reason: Recompute monthly totals after the currency fix.
  watchers: [analyst@example.com]
  status: Initiate
  ignore_date_partition_offset: true
`},
	},
	Run: func(pass *rules.Pass) error {
		pl := bqetl.Of(pass.Plan)
		if pl == nil || pl.Entry.Settled() || pl.Table.Partitioning.V != "month" || pl.Table.Offset.V == 0 || pl.Entry.IgnoreDatePartitionOffset.V {
			return nil
		}
		pass.Reportf(pl.Entry.Key, "%q is partitioned by month and its metadata sets date_partition_offset: %d, which bqetl applies to daily partitions only: running or completing this entry stops with NotImplementedError partway through the range\nhelp: set ignore_date_partition_offset: true on the entry",
			pl.Target, pl.Table.Offset.V)
		return nil
	},
}

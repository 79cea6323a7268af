package daterange

import (
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
)

// Expired reports a bqetl entry whose range reaches back beyond the
// table's partition expiration.
var Expired = &rules.Rule{
	Code:     "BF108",
	Name:     "range-expired",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The range starts before the oldest partition the table keeps",
		Why: "A table with bigquery.time_partitioning.expiration_days deletes every partition older than that many days. " +
			"A backfill that starts earlier recomputes partitions BigQuery drops as soon as they are written, or, worse, " +
			"reads sources that expired the same way and writes them near empty; either way the effort buys nothing and the " +
			"entry's reason is not met for those days. Start the range at the entry date minus expiration_days, or raise the " +
			"expiration first if the history is wanted back. Only bqetl entries still to run (status Initiate) are checked: a " +
			"completed one ran under the metadata of its day, which may have set no expiry.",
		Bad: rules.Example{Lang: "yaml", Text: `# metadata.yaml: time_partitioning.expiration_days: 180
2026-06-01:
  start_date: 2025-06-01   # a year back
  end_date: 2026-05-31
  reason: Fix the country mapping.
  watchers: [analyst@example.com]
  status: Initiate
`},
		Good: rules.Example{Lang: "yaml", Text: `2026-06-01:
  start_date: 2025-12-04   # the oldest partition kept
  end_date: 2026-05-31
  reason: Fix the country mapping.
  watchers: [analyst@example.com]
  status: Initiate
`},
	},
	Run: func(pass *rules.Pass) error {
		pl := bqetl.Of(pass.Plan)
		if pl == nil || pl.Entry.Settled() || !pl.Table.ExpirationDays.Limited || !pl.Entry.StartDate.Valid() || !pl.Entry.Date.Valid() {
			return nil
		}
		oldest := pl.Entry.Date.T.AddDate(0, 0, -pl.Table.ExpirationDays.Days)
		start := pass.Plan.Range.Start.T
		if !start.Before(oldest) {
			return nil
		}
		pass.Reportf(pl.Entry.StartDate.Key, "the range of %q starts at %s, but the table keeps partitions for expiration_days: %s, so on the entry date %s the oldest one kept is %s: the partitions before it are deleted as soon as the backfill writes them\nhelp: start at %s",
			pl.Target, start.Format("2006-01-02"), pl.Table.ExpirationDays.Raw, pl.Entry.Date.Raw, oldest.Format("2006-01-02"), oldest.Format("2006-01-02"))
		return nil
	},
}

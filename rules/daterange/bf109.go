package daterange

import (
	"strings"
	"time"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
)

// DependsOnPastEnd reports a bqetl entry of a depends_on_past table that
// ends before its entry date.
var DependsOnPastEnd = &rules.Rule{
	Code:     "BF109",
	Name:     "depends-on-past-gap",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A depends_on_past table is backfilled up to a day before the partitions already built on top of it",
		Why: "A table scheduled with depends_on_past builds each partition from the one before (a last-seen date, a running " +
			"total, bit patterns of days seen). Correcting it up to some day leaves every partition after that day computed " +
			"from the uncorrected one, and the error travels forward through them to today. bqetl refuses such a range unless " +
			"the entry sets override_depends_on_past_end_date; this rule reports the entries that set it. Extend end_date to " +
			"the entry date, so the backfill recomputes the chain up to the partitions the scheduled runs continue from. " +
			"Not reported: an entry with override_depends_on_past_null_partition, whose custom query fills each partition from " +
			"itself (new columns, say) rather than from the one before, and a table whose query does not read the table itself " +
			"(depends_on_past then only orders the runs); a query bflint cannot read is not judged. " +
			"The same break happens when an entry that ends on its entry date is completed days later: until the copy, the " +
			"scheduled runs after end_date build on the uncorrected partitions, and the copy replaces only the dates of the entry. " +
			"With --new-from-rev, an entry whose status turns to Complete more than a day after its end_date is reported, " +
			"with the days that still carry the error. " +
			"Only bqetl entries are checked.",
		Bad: rules.Example{Lang: "yaml", Text: `# metadata.yaml: scheduling.depends_on_past: true
2026-04-20:
  start_date: 2026-01-01
  end_date: 2026-03-31
  reason: Fix duplicate client_ids.
  watchers: [analyst@example.com]
  status: Initiate
  override_depends_on_past_end_date: true
`},
		Good: rules.Example{Lang: "yaml", Text: `2026-04-20:
  start_date: 2026-01-01
  end_date: 2026-04-20
  reason: Fix duplicate client_ids.
  watchers: [analyst@example.com]
  status: Initiate
`},
	},
	Run: func(pass *rules.Pass) error {
		pl := bqetl.Of(pass.Plan)
		if pl == nil {
			return nil
		}
		completedLate(pass, pl)
		e := pl.Entry
		// override_depends_on_past_null_partition runs a custom query per
		// partition that reads the table's own partition, not the one
		// before (a side-fill of new columns): no chain is broken.
		if e.Settled() || e.OverrideDependsOnPastNullPartition.V || !pl.Table.DependsOnPast.V || !pl.ReadsItself || !e.EndDate.Valid() || !e.Date.Valid() || !e.EndDate.T.Before(e.Date.T) {
			return nil
		}
		pass.Reportf(e.EndDate.Key, "%q depends on its past (scheduling.depends_on_past), but the entry ends on %s, before its entry date %s: the partitions the scheduled runs built after %s were computed from the uncorrected ones and keep the error\nhelp: end the entry on %s",
			pl.Target, e.EndDate.Raw, e.Date.Raw, e.EndDate.Raw, e.Date.Raw)
		return nil
	},
}

// completedLate reports a depends_on_past entry marked Complete (its status
// was something else at the --new-from-rev revision) on a day, --now,
// more than one day after its end: the scheduled runs of the days between
// read the uncorrected partition before them, and the copy does not reach
// them.
func completedLate(pass *rules.Pass, pl *bqetl.Planned) {
	e, was := pl.Entry, pl.Before
	// An entry ending before its entry date is reported for that gap,
	// which the late copy only widens.
	if was == nil || !pl.Table.DependsOnPast.V || !pl.ReadsItself || !e.EndDate.Valid() || !e.Date.Valid() || e.EndDate.T.Before(e.Date.T) || !strings.EqualFold(e.Status.V, "Complete") ||
		strings.EqualFold(was.Status.V, "Complete") || was.Cancelled() || e.OverrideDependsOnPastNullPartition.V {
		return
	}
	today := dayOf(pass.Now)
	first, last := e.EndDate.T.AddDate(0, 0, 1), today.AddDate(0, 0, -1)
	if last.Before(first) {
		return
	}
	pass.Reportf(e.Status.Value, "%q depends on its past, and completing this entry on %s copies partitions up to %s only: the scheduled runs for %s to %s already built their partitions from the uncorrected ones, and keep the error\nhelp: add an entry from %s to %s, or complete entries of such tables the day after they end",
		pl.Target, today.Format(time.DateOnly), e.EndDate.Raw, first.Format(time.DateOnly), last.Format(time.DateOnly), first.Format(time.DateOnly), last.Format(time.DateOnly))
}

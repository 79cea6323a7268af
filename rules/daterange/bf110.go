package daterange

import (
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// RangeChangedAfterStart reports a bqetl entry whose dates were changed
// after it was merged.
var RangeChangedAfterStart = &rules.Rule{
	Code:     "BF110",
	Name:     "range-changed-after-start",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The dates of an entry that already ran were changed",
		Why: "bqetl starts an entry's backfill about an hour after the entry is merged and runs it once, into a staging table named " +
			"after the table and the entry date. Once that table exists the entry counts as running: editing start_date, end_date " +
			"or excluded_dates afterwards computes nothing new, and completing the entry copies the dates the file holds then from " +
			"a staging table that lacks the ones added. A range narrowed (a later start, an earlier end, a date newly excluded) " +
			"only copies fewer of the partitions that ran and is no finding. Add a new entry, dated the day it is written, for the dates that were missed, and complete or " +
			"cancel the first one as it stands. " +
			"Checked only with --new-from-rev: the entry as it is is compared with the entry of the same date at that revision " +
			"(the one merged, and so run); an entry that was cancelled there never ran, and neither did one that bqetl's own " +
			"validation refuses: a start_date more than its retention limit (775 days, or the table's expiration_days if fewer) " +
			"before the entry date, without override_retention_limit, or a depends_on_past entry ending before its entry date " +
			"without override_depends_on_past_end_date. Editing such an entry is how it is fixed.",
		Bad: rules.Example{Lang: "yaml", Text: `# merged on 2026-05-20 with end_date: 2026-05-10, then edited:
2026-05-20:
  start_date: 2026-05-01
  end_date: 2026-05-17
  reason: Fix the country mapping.
  watchers: [analyst@example.com]
  status: Initiate
`},
		Good: rules.Example{Lang: "yaml", Text: `2026-05-22:
  start_date: 2026-05-11
  end_date: 2026-05-17
  reason: Fix the country mapping for the days the first entry missed.
  watchers: [analyst@example.com]
  status: Initiate
2026-05-20:
  start_date: 2026-05-01
  end_date: 2026-05-10
  reason: Fix the country mapping.
  watchers: [analyst@example.com]
  status: Complete
`},
	},
	Run: func(pass *rules.Pass) error {
		pl := bqetl.Of(pass.Plan)
		if pl == nil || pl.Before == nil || pl.Before.Cancelled() || pl.Entry.Cancelled() || refused(pl.Before, pl.Table) {
			return nil
		}
		e, was := pl.Entry, pl.Before
		// Only dates added matter: bqetl completes an entry by copying
		// the dates the file holds then, so a narrowed range copies
		// fewer of the partitions that ran, and nothing is lost.
		report := func(field plan.Date, key, before, added string) {
			pass.Reportf(field.Key, "%s was %s when this entry was merged, and its backfill ran then into %s; bqetl never runs an entry twice, so the dates added (%s) are not computed, and completing the entry copies them from a staging table that lacks them\nhelp: restore %s and add a new entry for the dates missed",
				key, before, pl.Staging, added, key)
		}
		if e.StartDate.Valid() && was.StartDate.Valid() && e.StartDate.T.Before(was.StartDate.T) {
			report(e.StartDate, "start_date", was.StartDate.Raw, span(e.StartDate.T, was.StartDate.T.AddDate(0, 0, -1)))
		}
		if e.EndDate.Valid() && was.EndDate.Valid() && e.EndDate.T.After(was.EndDate.T) {
			report(e.EndDate, "end_date", was.EndDate.Raw, span(was.EndDate.T.AddDate(0, 0, 1), e.EndDate.T))
		}
		now := dateSet(e.ExcludedDates)
		var readded []string
		for _, d := range dateSet(was.ExcludedDates) {
			if !slices.Contains(now, d) && within(e, d) {
				readded = append(readded, d)
			}
		}
		if len(readded) > 0 {
			at := e.ExcludedDates.Key
			if !at.IsValid() {
				at = e.Key
			}
			pass.Reportf(at, "excluded_dates no longer lists %s, excluded when this entry was merged and its backfill ran into %s; bqetl never runs an entry twice, so those dates are not computed, and completing the entry copies them from a staging table that lacks them\nhelp: restore the list and add a new entry for the dates missed",
				strings.Join(readded, ", "), pl.Staging)
		}
		return nil
	},
}

// retentionDays is bqetl's limit on how far before its entry date an
// entry may start (NBR_DAYS_RETAINED in bigquery_etl/backfill/utils.py).
const retentionDays = 775

// refused reports whether bqetl's validation stops the entry before it
// runs, so that no staging table was made for it.
func refused(e *bqetl.Entry, t *bqetl.Table) bool {
	if !e.Date.Valid() {
		return false
	}
	limit := retentionDays
	if t.ExpirationDays.Limited && t.ExpirationDays.Days < limit {
		limit = t.ExpirationDays.Days
	}
	if !e.OverrideRetentionLimit.V && e.StartDate.Valid() && e.StartDate.T.Before(e.Date.T.AddDate(0, 0, -(limit-1))) {
		return true
	}
	return t.DependsOnPast.V && !e.OverrideDependsOnPastEndDate.V && e.EndDate.Valid() && e.EndDate.T.Before(e.Date.T)
}

// span writes the days from..to, one day as itself.
func span(from, to time.Time) string {
	if !to.After(from) {
		return from.Format(time.DateOnly)
	}
	return from.Format(time.DateOnly) + ".." + to.Format(time.DateOnly)
}

// within reports whether the day d (2006-01-02) is in the entry's range.
func within(e *bqetl.Entry, d string) bool {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil || !e.StartDate.Valid() || !e.EndDate.Valid() {
		return false
	}
	return !t.Before(e.StartDate.T) && !t.After(e.EndDate.T)
}

// dateSet is a list of dates as sorted days.
func dateSet(ds bqetl.Dates) []string {
	var out []string
	for _, d := range ds.Items {
		if d.Valid() {
			out = append(out, d.T.Format("2006-01-02"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

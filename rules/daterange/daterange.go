// Package daterange holds the rules about the range a backfill covers: that
// it is written down, ends before the partitions the scheduled pipeline
// still writes, rests on evidence for its start, names real partitions, and
// is the range the SQL actually bounds and the run command actually runs;
// for bqetl entries, that the range is one bqetl can run and keep.
package daterange

import (
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// Rules are the daterange family.
var Rules = []*rules.Rule{Missing, IncludesCurrent, Unconfirmed, SQLMismatch, Invalid, RunMismatch, MonthOffset, Expired, DependsOnPastEnd, RangeChangedAfterStart, RangeUnreachable, ClockDependentPartition}

// written reports whether a date key holds a value. A value the parser
// rejected counts as written: BF001 already reports it, and calling it
// missing as well would send the author looking for the wrong mistake.
func written(d plan.Date) bool { return d.Set || d.Raw != "" }

// dayOf is the calendar day of t, at midnight UTC, as bqetl's dates are.
func dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

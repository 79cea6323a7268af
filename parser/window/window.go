// Package window describes which partitions of a relation a query reads
// to compute one partition of its own: the same day, the 28 days before
// it, the month it falls in. A correction of a relation's days S..E
// then changes the partitions of every table reading it whose window
// meets S..E, which is the range those tables must be rebuilt over.
package window

import (
	"fmt"
	"time"
)

// Trunc is a truncation of a date.
type Trunc int

const (
	NoTrunc Trunc = iota
	// MonthStart and MonthEnd are the first and last day of the date's
	// month; WeekStart the Monday of its ISO week.
	MonthStart
	MonthEnd
	WeekStart
)

// Bound is a date computed from the partition's date D: D moved by
// Months and Days, truncated, then moved by After days
// (DATE_SUB(DATE_TRUNC(D, MONTH), INTERVAL 1 DAY) is {Trunc: MonthStart,
// After: -1}).
type Bound struct {
	Months, Days int
	Trunc        Trunc
	After        int
}

// At is the bound for partition d.
func (b Bound) At(d time.Time) time.Time {
	t := addMonths(d, b.Months).AddDate(0, 0, b.Days)
	switch b.Trunc {
	case MonthStart:
		t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case MonthEnd:
		t = time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	case WeekStart:
		t = t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
	}
	return t.AddDate(0, 0, b.After)
}

// addMonths moves d by months as SQL engines do, keeping to the last day
// of a shorter month (2026-07-31 minus a month is 2026-06-30).
func addMonths(d time.Time, months int) time.Time {
	if months == 0 {
		return d
	}
	first := time.Date(d.Year(), d.Month()+time.Month(months), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d.Day(), last)-1)
}

// Plain reports whether the bound is D moved by a number of days.
func (b Bound) Plain() bool { return b.Months == 0 && b.Trunc == NoTrunc }

// Shift moves the bound by days.
func (b Bound) Shift(days int) Bound {
	if b.Trunc == NoTrunc {
		b.Days += days
		return b
	}
	b.After += days
	return b
}

func (b Bound) String() string {
	d := "D"
	if b.Months != 0 {
		d = fmt.Sprintf("D%+d month", b.Months)
	}
	if b.Days != 0 {
		d = fmt.Sprintf("%s%+d", d, b.Days)
	}
	switch b.Trunc {
	case MonthStart:
		d = "start of month(" + d + ")"
	case MonthEnd:
		d = "end of month(" + d + ")"
	case WeekStart:
		d = "start of week(" + d + ")"
	}
	if b.After != 0 {
		d = fmt.Sprintf("%s%+d", d, b.After)
	}
	return d
}

// Window is the partitions of a relation read for partition D: from Lo
// to Hi, both inclusive.
type Window struct {
	Lo, Hi Bound
}

// Same is the window of a relation read at D alone.
var Same = Window{}

// Days is the window D+lo..D+hi.
func Days(lo, hi int) Window { return Window{Lo: Bound{Days: lo}, Hi: Bound{Days: hi}} }

// IsSame reports whether the window is D alone.
func (w Window) IsSame() bool { return w == Same }

// Then is the window of a relation read through another: w is how the
// middle relation reads the first, next how the last reads the middle.
// Plain day windows add up; a window with a month or week in it composes
// exactly only with the same day on either side, else the result widens
// the calendar window by the day window.
func (w Window) Then(next Window) Window {
	switch {
	case w.IsSame():
		return next
	case next.IsSame():
		return w
	case w.Lo.Plain() && w.Hi.Plain() && next.Lo.Plain() && next.Hi.Plain():
		return Days(w.Lo.Days+next.Lo.Days, w.Hi.Days+next.Hi.Days)
	case w.Lo.Plain() && w.Hi.Plain():
		return Window{Lo: next.Lo.Shift(w.Lo.Days), Hi: next.Hi.Shift(w.Hi.Days)}
	case next.Lo.Plain() && next.Hi.Plain():
		return Window{Lo: w.Lo.Shift(next.Lo.Days), Hi: w.Hi.Shift(next.Hi.Days)}
	}
	// Two calendar windows: the first's widest reach at each end of the
	// second's.
	return Window{Lo: next.Lo.Shift(minDays(w.Lo)), Hi: next.Hi.Shift(maxDays(w.Hi))}
}

var ref = time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)

// minDays and maxDays bound a calendar bound by days from D: the most a
// month moves it either way.
func minDays(b Bound) int {
	lo := 0
	for d := ref; d.Before(ref.AddDate(1, 0, 0)); d = d.AddDate(0, 0, 1) {
		lo = min(lo, int(b.At(d).Sub(d).Hours()/24))
	}
	return lo
}

func maxDays(b Bound) int {
	hi := 0
	for d := ref; d.Before(ref.AddDate(1, 0, 0)); d = d.AddDate(0, 0, 1) {
		hi = max(hi, int(b.At(d).Sub(d).Hours()/24))
	}
	return hi
}

// Union is the smallest window holding both, judged over a year of
// partitions.
func (w Window) Union(o Window) Window {
	if w.Lo.Plain() && w.Hi.Plain() && o.Lo.Plain() && o.Hi.Plain() {
		return Days(min(w.Lo.Days, o.Lo.Days), max(w.Hi.Days, o.Hi.Days))
	}
	out := w
	if minDays(o.Lo) < minDays(w.Lo) {
		out.Lo = o.Lo
	}
	if maxDays(o.Hi) > maxDays(w.Hi) {
		out.Hi = o.Hi
	}
	return out
}

func (w Window) String() string {
	switch {
	case w.IsSame():
		return "same"
	case w.Lo.Plain() && w.Hi.Plain():
		return fmt.Sprintf("days %d..%d", w.Lo.Days, w.Hi.Days)
	case w.Lo == Bound{Trunc: MonthStart} && (w.Hi == Bound{} || w.Hi == Bound{Trunc: MonthEnd}):
		return "month"
	case w.Lo == Bound{Months: -1, Trunc: MonthStart} && w.Hi == Bound{Months: -1, Trunc: MonthEnd}:
		return "previous month"
	case w.Lo == Bound{Trunc: WeekStart} && (w.Hi == Bound{} || w.Hi == Bound{Trunc: WeekStart, After: 6}):
		return "week"
	}
	return w.Lo.String() + ".." + w.Hi.String()
}

// Affected is the range of partitions whose window meets start..end,
// the days a correction changes: the partitions a table reading the
// corrected relation through w must be rebuilt over.
func (w Window) Affected(start, end time.Time) (from, to time.Time) {
	if w.Lo.Plain() && w.Hi.Plain() {
		return start.AddDate(0, 0, -w.Hi.Days), end.AddDate(0, 0, -w.Lo.Days)
	}
	// A calendar bound moves a partition's window by at most its
	// widest reach over a year, plus a month.
	from = start.AddDate(0, 0, -maxDays(w.Hi)-31)
	for w.Hi.At(from).Before(start) {
		from = from.AddDate(0, 0, 1)
	}
	to = end.AddDate(0, 0, -minDays(w.Lo)+31)
	for w.Lo.At(to).After(end) {
		to = to.AddDate(0, 0, -1)
	}
	return from, to
}

// Rebuild says, for a correction over S..E, the range a table reading
// the corrected relation through w must be rebuilt over: "S..E+27" for
// days -27..0.
func (w Window) Rebuild() string {
	if w.Lo.Plain() && w.Hi.Plain() {
		return "S" + offset(-w.Hi.Days) + "..E" + offset(-w.Lo.Days)
	}
	switch w.String() {
	case "month":
		if w.Hi == (Bound{}) {
			return "S..end of month(E)"
		}
		return "start of month(S)..end of month(E)"
	case "previous month":
		return "start of month(S+1 month)..end of month(E+1 month)"
	case "week":
		return "S..end of week(E)"
	}
	return "S..E widened by " + w.String()
}

func offset(days int) string {
	if days == 0 {
		return ""
	}
	return fmt.Sprintf("%+d", days)
}

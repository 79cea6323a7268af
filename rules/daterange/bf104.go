package daterange

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// SQLMismatch reports date literals in the run's SQL that bound a range
// other than the plan's.
var SQLMismatch = &rules.Rule{
	Code:     "BF104",
	Name:     "range-sql-mismatch",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "Date literals on the partition column in the build, publish or rollback capture SQL bound a range other than the plan's",
		Why: "The plan's range is what was investigated, reviewed and approved; the SQL is what runs. When the two are typed separately they drift: " +
			"an off-by-one start, an exclusive bound written as inclusive, a range widened while testing and never narrowed. " +
			"Then the build recomputes partitions nobody planned, or leaves planned ones untouched, and the validation and the rollback capture " +
			"cover yet another span. Each literal that bounds the partition column must denote the plan's range at its grain: " +
			"the start inclusive, the end inclusive, or the partition after the end exclusive (< DATE '2026-07-01' for a range ending 2026-06-30). " +
			"At month grain DATE '2026-01-01' is 2026-01; a date in the middle of a partition is not its start. Without range.partition_column, " +
			"the configured partition column patterns say which column is meant. " +
			"When range.end reaches a partition the scheduled pipeline still writes (BF102), the SQL's end is held to the end BF102 advises, " +
			"so that the two rules never ask for opposite edits. " +
			"A build may compute the range one partition per statement (a query run once per date, as bigquery-etl runs it): " +
			"each such statement is held to one partition of the range, and together they must compute every partition of it. " +
			"A statement of the build that writes another relation of the staging schema over a check's control period " +
			"(the control recomputed for the check to compare) is held to that period instead.",
		Bad: rules.Example{Lang: "sql", Text: `-- range: 2026-01-14 .. 2026-06-30, grain day
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM raw.orders_events
WHERE order_date >= DATE '2026-01-15'   -- a day late
  AND order_date <= DATE '2026-07-01';  -- a day into July
`},
		Good: rules.Example{Lang: "sql", Text: `-- range: 2026-01-14 .. 2026-06-30, grain day
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM raw.orders_events
WHERE order_date >= DATE '2026-01-14'
  AND order_date < DATE '2026-07-01';   -- the day after range.end, exclusive
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		start, end, ok := p.Bounds()
		if !ok {
			return nil
		}
		r := planRange{g: p.Grain(), start: start, end: end}
		// A range.end that reaches the partitions the scheduled pipeline
		// still writes is BF102's: the SQL is held to the end BF102
		// advises, so the two rules never ask for opposite edits.
		var advised *planRange
		if o := ownedBy(pass); !end.Before(o.oldest) {
			if last := r.g.Add(o.oldest, -1); !last.Before(start) {
				advised = &planRange{g: r.g, start: start, end: last}
			}
		}
		builds := map[*rules.SQLFile]bool{}
		for _, f := range pass.SQLFiles("staging.build") {
			builds[f] = true
		}
		controls := controlPeriods(p)
		for _, f := range pass.SQLFiles("staging.build", "publish.sql", "rollback.capture") {
			reported := map[int]bool{}
			var perPartition partitionCover
			for _, st := range f.Parsed.Statements {
				if st.Node == nil {
					continue
				}
				bounds := partitionBounds(pass, st)
				if builds[f] && (perPartition.add(r, bounds) || buildsControl(pass, st, bounds, controls)) {
					continue
				}
				for _, tb := range bounds {
					b, v := tb.bound, tb.at
					if reported[b.Value.Offset] {
						continue
					}
					denotes, want, wrong := r.judge(b, v)
					if !wrong {
						continue
					}
					if advised != nil && b.Op != ">=" && b.Op != ">" {
						_, advisedWant, advisedWrong := advised.judge(b, v)
						if !advisedWrong {
							continue
						}
						want = fmt.Sprintf("%s, the end BF102 advises for range.end (%s reaches the partitions the scheduled pipeline still writes)", advisedWant, p.Range.End.Raw)
					}
					reported[b.Value.Offset] = true
					pass.Reportf(f.Pos(b.Value.Offset), "the bound %q %s '%s' %s: the statement works on other partitions than the plan names, so what is built, published or captured is not the range that was planned, validated and approved\nhelp: write %s",
						b.Column, b.Op, b.Value.Text, denotes, want)
				}
			}
			if missing := perPartition.missing(r); len(missing) > 0 {
				those := "those partitions of range %s..%s stay as the target has them, or are dropped"
				if len(missing) == 1 {
					those = "that partition of range %s..%s stays as the target has it, or is dropped"
				}
				pass.Reportf(f.Pos(perPartition.first), "the build computes the range one partition per statement, and no statement computes %s: "+those+" by a publish that replaces the range\nhelp: add a statement for each missing partition, or compute the whole range in one",
					partitionList(r.g, missing), r.g.Format(r.start), r.g.Format(r.end))
			}
		}
		return nil
	},
}

// controlPeriods are the control periods of the plan's checks, at its
// grain.
func controlPeriods(p *plan.Plan) []planRange {
	var out []planRange
	if p.Validation == nil {
		return nil
	}
	g := p.Grain()
	for _, c := range p.Validation.Checks {
		if c.Control == nil || !c.Control.Set {
			continue
		}
		if start, end, ok := c.Control.Bounds(g); ok {
			out = append(out, planRange{g: g, start: start, end: end})
		}
	}
	return out
}

// buildsControl reports whether a statement of the build recomputes a
// control period for a check to compare: it writes only staging
// relations other than staging.relation, and its bounds on the partition
// column hold it to one of the checks' control periods.
func buildsControl(pass *rules.Pass, st *sqlparse.Statement, bounds []timedBound, controls []planRange) bool {
	writes := st.Writes()
	if len(bounds) == 0 || len(writes) == 0 || pass.Plan.Staging == nil || !pass.Plan.Staging.Relation.Set {
		return false
	}
	staging := sqlname.Parse(pass.Plan.Staging.Relation.V)
	for _, w := range writes {
		if w.Target.Matches(staging) || !pass.IsStaging(w.Target) {
			return false
		}
	}
	for _, c := range controls {
		if _, one := c.holdsOne(bounds); one || c.holds(bounds) {
			return true
		}
	}
	return false
}

// holds reports whether every bound agrees with the range r.
func (r planRange) holds(bounds []timedBound) bool {
	for _, tb := range bounds {
		if _, _, wrong := r.judge(tb.bound, tb.at); wrong {
			return false
		}
	}
	return len(bounds) > 0
}

// holdsOne returns the partition of r the bounds hold a statement to,
// when they hold it to one: they start at it (an = or a >= bound) and
// every other bound agrees.
func (r planRange) holdsOne(bounds []timedBound) (time.Time, bool) {
	for _, tb := range bounds {
		if tb.bound.Op != "=" && tb.bound.Op != ">=" {
			continue
		}
		p := tb.at
		if p.Before(r.start) || p.After(r.end) || !(planRange{g: r.g, start: p, end: p}).holds(bounds) {
			return time.Time{}, false
		}
		return p, true
	}
	return time.Time{}, false
}

// timedBound is a bound on the partition column with the time its literal
// denotes.
type timedBound struct {
	bound fact.Bound
	at    time.Time
}

// partitionBounds are the statement's bounds on the partition column
// whose literal is a date or a time.
func partitionBounds(pass *rules.Pass, st *sqlparse.Statement) []timedBound {
	var out []timedBound
	for _, c := range st.Conditions() {
		for _, b := range c.Bounds() {
			if !pass.IsPartitionColumn(b.Column) {
				continue
			}
			if v, ok := literalTime(b.Value); ok {
				out = append(out, timedBound{b, v})
			}
		}
	}
	return out
}

// partitionCover gathers the statements of a build that each compute one
// partition of the range (a query run once per date, as bigquery-etl
// runs it): together they must compute every partition.
type partitionCover struct {
	done  map[time.Time]bool
	first int // offset of the first such statement's first bound
}

// add records a statement whose bounds hold it to one partition of a
// range of several, and reports whether it did.
func (c *partitionCover) add(r planRange, bounds []timedBound) bool {
	p, ok := r.holdsOne(bounds)
	if !ok || r.start.Equal(r.end) {
		return false
	}
	if c.done == nil {
		c.done, c.first = map[time.Time]bool{}, bounds[0].bound.Value.Offset
	}
	c.done[p] = true
	return true
}

// missing are the partitions of the range no statement computes, when
// some statement computes one partition alone.
func (c *partitionCover) missing(r planRange) []time.Time {
	if c.done == nil {
		return nil
	}
	var out []time.Time
	for p := r.start; !p.After(r.end); p = r.g.Add(p, 1) {
		if !c.done[p] {
			out = append(out, p)
		}
	}
	return out
}

// partitionList names a few partitions and counts the rest.
func partitionList(g plan.Grain, ps []time.Time) string {
	const shown = 3
	names := make([]string, 0, shown)
	for _, p := range ps[:min(shown, len(ps))] {
		names = append(names, g.Format(p))
	}
	text := strings.Join(names, ", ")
	if len(ps) > shown {
		text += fmt.Sprintf(" and %d more", len(ps)-shown)
	}
	return text
}

// planRange is the plan's range as partition starts at its grain.
type planRange struct {
	g          plan.Grain
	start, end time.Time
}

// judge compares a bound's value v with the range. It describes what the
// literal denotes and the bound that would match the plan, and says whether
// they differ.
func (r planRange) judge(b fact.Bound, v time.Time) (denotes, want string, wrong bool) {
	g, col := r.g, b.Column
	next := g.Add(r.end, 1)
	lit := func(t time.Time) string { return sqlLiteral(b.Value.Kind, g, t) }
	switch b.Op {
	case ">=", ">":
		ok := b.Op == ">=" && v.Equal(r.start) ||
			b.Op == ">" && (v.Equal(g.Add(r.start, -1)) || g != plan.Hour && v.Equal(r.start.AddDate(0, 0, -1)))
		verb := "at"
		if b.Op == ">" {
			verb = "after"
		}
		return fmt.Sprintf("starts the SQL's range %s %s, not at range.start %s", verb, b.Value.Text, g.Format(r.start)),
			fmt.Sprintf("%s >= %s", col, lit(r.start)), !ok
	case "<=":
		ok := v.Equal(r.end) || v.Equal(next.Add(-time.Second)) || v.Equal(next.Add(-time.Minute)) ||
			g != plan.Hour && v.Equal(next.AddDate(0, 0, -1))
		return fmt.Sprintf("ends the SQL's range at %s, not at range.end %s", b.Value.Text, g.Format(r.end)),
			upperBound(col, g, r.end, next, lit), !ok
	case "<":
		return fmt.Sprintf("ends the SQL's range before %s, not after range.end %s", b.Value.Text, g.Format(r.end)),
			fmt.Sprintf("%s < %s, the %s after range.end", col, lit(next), g), !v.Equal(next)
	case "=":
		if r.start.Equal(r.end) {
			return fmt.Sprintf("holds the SQL to %s, not to the range's one partition %s", b.Value.Text, g.Format(r.start)),
				fmt.Sprintf("%s = %s", col, lit(r.start)), !v.Equal(r.start)
		}
		return fmt.Sprintf("holds the SQL to %s alone, not to the range %s..%s", b.Value.Text, g.Format(r.start), g.Format(r.end)),
			fmt.Sprintf("%s >= %s AND %s < %s", col, lit(r.start), col, lit(next)), true
	}
	return "", "", false
}

// upperBound is the inclusive bound to suggest for the end of the range:
// at day and hour grain the last partition itself; at coarser grains the
// partition after it, exclusive, which holds whether the column stores
// days or partition starts.
func upperBound(col string, g plan.Grain, end, next time.Time, lit func(time.Time) string) string {
	if g == plan.Day || g == plan.Hour {
		return fmt.Sprintf("%s <= %s", col, lit(end))
	}
	return fmt.Sprintf("%s < %s, the %s after range.end", col, lit(next), g)
}

// sqlLiteral writes t as a literal of the kind the SQL used; at hour grain
// a date cannot name the partition, so a typed literal becomes a timestamp.
func sqlLiteral(kind fact.LiteralKind, g plan.Grain, t time.Time) string {
	typed := kind == fact.LiteralDate || kind == fact.LiteralTimestamp
	if g == plan.Hour {
		s := "'" + t.Format("2006-01-02 15:04") + "'"
		if typed {
			return "TIMESTAMP " + s
		}
		return s
	}
	s := "'" + t.Format("2006-01-02") + "'"
	switch kind {
	case fact.LiteralDate:
		return "DATE " + s
	case fact.LiteralTimestamp:
		return "TIMESTAMP " + s
	}
	return s
}

// fraction is the fractional seconds of a timestamp literal, which the plan
// date format has no room for.
var fraction = regexp.MustCompile(`(:\d{2})\.\d+`)

// literalTime reads a date or timestamp literal as a plan date: UTC wall
// clock, the footing plan dates are compared on.
func literalTime(l fact.Literal) (time.Time, bool) {
	switch l.Kind {
	case fact.LiteralDate, fact.LiteralTimestamp, fact.LiteralString:
	default:
		return time.Time{}, false
	}
	t, _, err := plan.ParseDate(fraction.ReplaceAllString(strings.TrimSpace(l.Text), "$1"))
	return t, err == nil
}

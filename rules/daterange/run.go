package daterange

import (
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
)

// runField is the plan's run.command, read; nil when the plan has none.
func runField(pass *rules.Pass) *runcmd.Field {
	if pass.Plan == nil || pass.Plan.Run == nil {
		return nil
	}
	return runcmd.Read(pass.Unit.File, pass.Plan.Run.Command)
}

// zoned places partitions on the clock: plan dates carry their wall-clock
// reading in UTC, while dbt's event times are instants.
type zoned struct {
	g   plan.Grain
	loc *time.Location
}

// instant is the moment a wall-clock reading of the plan's timezone names.
func (z zoned) instant(wall time.Time) time.Time {
	return time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), z.loc).UTC()
}

// wall is the reading of the plan's timezone at instant t, on the UTC
// footing of plan dates.
func (z zoned) wall(t time.Time) time.Time {
	l := t.In(z.loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// airflowWall is an Airflow logical date as a wall-clock reading of the
// plan's timezone: a date with a zone is moved into it, one without is
// taken as written, since the DAG's logical dates name its partitions.
func (z zoned) airflowWall(t *runcmd.Time) time.Time {
	if t.Zoned {
		return z.wall(t.T)
	}
	return t.T
}

// firstAirflow is the first partition an Airflow start date runs: a
// logical date inside a partition comes after that partition's run.
func (z zoned) firstAirflow(t *runcmd.Time) time.Time {
	w := z.airflowWall(t)
	p := z.g.Truncate(w)
	if p.Before(w) {
		p = z.g.Add(p, 1)
	}
	return p
}

// lastAirflow is the last partition an Airflow end date runs.
func (z zoned) lastAirflow(t *runcmd.Time) time.Time { return z.g.Truncate(z.airflowWall(t)) }

// lastDBT is the partition holding the last instant before dbt's
// exclusive event-time end: the end minus one grain when the end is a
// partition boundary.
func (z zoned) lastDBT(end time.Time) time.Time {
	return z.g.Truncate(z.wall(end.Add(-time.Nanosecond)))
}

// airflowValue writes a partition start as an Airflow logical date.
func (z zoned) airflowValue(p time.Time) string {
	if z.g == plan.Hour {
		return p.Format("2006-01-02T15:04")
	}
	return p.Format("2006-01-02")
}

// span names the partitions from first to last.
func (z zoned) span(first, last time.Time) string {
	if first.Equal(last) {
		return z.g.Format(first)
	}
	return z.g.Format(first) + " .. " + z.g.Format(last)
}

package daterange

import (
	"fmt"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
)

// RunMismatch reports a run.command whose dates do not cover exactly the
// plan's range.
var RunMismatch = &rules.Rule{
	Code:     "BF106",
	Name:     "run-range-mismatch",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The dates in run.command do not cover exactly the plan's range, give only one end of it, or are passed to dbt for a model that is not microbatch",
		Why: "The command is what runs; the range is what was investigated and approved. dbt's --event-time-start is inclusive and --event-time-end exclusive, " +
			"so a range ending 2026-06-30 needs --event-time-end 2026-07-01; Airflow's -s/-e (dags backfill) and --from-date/--to-date (backfill create) " +
			"are inclusive logical dates, so the same range needs -e 2026-06-30. Mixing the two conventions is the classic off-by-one: the last day is " +
			"left wrong, or a day outside the range is rewritten without being validated. dbt reads its event times as UTC instants, so for a plan in " +
			"another timezone they must be the instants where the range's partitions begin and end there; Airflow dates without a zone are taken as " +
			"the plan's partition values, one DAG run per partition. With only one end given, dbt runs up to the moment it starts (or refuses), and " +
			"Airflow 2 runs that single date, or refuses, as Airflow 3 does. dbt applies event times only to microbatch models " +
			"(incremental_strategy: microbatch in the manifest): on any other target it ignores them, so nothing in the range is rebuilt as planned. " +
			"A command the shell cannot split (an unterminated quote or substitution) is reported here too, as \"run.command cannot be read\", since it " +
			"is valid YAML that never runs. Dates written as shell variables or templates are not known until the run and are not checked. " +
			"A model that reads its range from vars (var('backfill_start') in its file) gets them from --vars: when the run read the target model's file " +
			"and the command sets exactly two dates among the vars it reads, the earlier must be range.start and the later range.end, or the partition " +
			"after it for a filter that excludes its end (bflint does not read which); other vars are not checked. " +
			"Findings point at the word inside the command, on whichever line of a block or folded scalar it stands; only a quoted command with escapes points at the start of its value.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
run:
  # --event-time-end is exclusive: 2026-06-30 is not rebuilt
  command: dbt run --select fct_orders --event-time-start 2026-01-14 --event-time-end 2026-06-30
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
run:
  command: dbt run --select fct_orders --event-time-start 2026-01-14 --event-time-end 2026-07-01
  # or: airflow dags backfill -s 2026-01-14 -e 2026-06-30 --reset-dagruns -y orders_daily
`},
	},
	Run: func(pass *rules.Pass) error {
		fd := runField(pass)
		if fd == nil {
			return nil
		}
		if fd.Err != nil {
			pass.Reportf(fd.Pos(fd.Err.Offset), "run.command cannot be read: %v, so the shell refuses the whole line and the backfill never runs; bflint checks none of its dates or flags until it is closed", fd.Err)
			return nil
		}
		p := pass.Plan
		c := &runCheck{pass: pass, fd: fd, z: zoned{g: p.Grain(), loc: p.Location()}}
		c.start, c.end, c.ok = p.Bounds()
		for _, cmd := range fd.Commands {
			switch {
			case cmd.DBT != nil && cmd.DBT.Rebuilds():
				c.dbt(cmd.DBT)
				c.dbtVars(cmd.DBT)
			case cmd.Airflow != nil && cmd.Airflow.Backfill != 0:
				c.airflow(cmd.Airflow)
			}
		}
		return nil
	},
}

type runCheck struct {
	pass       *rules.Pass
	fd         *runcmd.Field
	z          zoned
	start, end time.Time
	ok         bool // the range is usable for comparisons
}

func (c *runCheck) report(w runcmd.Word, format string, args ...any) {
	c.pass.Reportf(c.fd.Pos(w.Offset), format, args...)
}

// where names the plan's timezone after a date when it is not UTC.
func (c *runCheck) where() string {
	if c.z.loc == time.UTC {
		return ""
	}
	return " in " + c.z.loc.String()
}

// The values a command should pass, or a description when the range is
// not usable.
func (c *runCheck) dbtStart() string {
	if !c.ok {
		return "<the instant range.start begins>"
	}
	return runcmd.EventTimeValue(c.z.instant(c.start))
}

func (c *runCheck) dbtEnd() string {
	if !c.ok {
		return "<the instant range.end ends>"
	}
	return runcmd.EventTimeValue(c.z.instant(c.z.g.Add(c.end, 1)))
}

func (c *runCheck) airflowStart() string {
	if !c.ok {
		return "<range.start>"
	}
	return c.z.airflowValue(c.start)
}

func (c *runCheck) airflowEnd() string {
	if !c.ok {
		return "<range.end>"
	}
	return c.z.airflowValue(c.end)
}

// readable reports a date option with no value or a value that is not a
// date, and says whether its value is known.
func (c *runCheck) readable(t *runcmd.Time, tool, want string) bool {
	name := runcmd.FlagName(t.Flag)
	switch {
	case t.Value == nil:
		c.report(t.Flag, "%s has no value, so %s refuses the command and nothing is backfilled\nhelp: write %s %s", name, tool, name, want)
	case t.Err != nil:
		c.report(*t.Value, "%s %v, so %s refuses the command and nothing is backfilled\nhelp: write %s %s", name, t.Err, tool, name, want)
	}
	return t.Known()
}

func (c *runCheck) dbt(d *runcmd.DBT) {
	s, e := d.EventTimeStart, d.EventTimeEnd
	if s == nil && e == nil {
		return
	}
	first := s
	if first == nil || e != nil && e.Flag.Offset < s.Flag.Offset {
		first = e
	}
	if c.notMicrobatch(first, s != nil && e != nil) {
		return
	}
	switch {
	case e == nil:
		c.report(s.Flag, "--event-time-start without --event-time-end: dbt runs the batches from it up to the moment it starts (some versions refuse the command instead), through the current partition and past range.end\nhelp: add --event-time-end %s", c.dbtEnd())
		return
	case s == nil:
		c.report(e.Flag, "--event-time-end without --event-time-start: dbt refuses the command, so nothing is rebuilt\nhelp: add --event-time-start %s", c.dbtStart())
		return
	}
	sOK := c.readable(s, "dbt", c.dbtStart())
	eOK := c.readable(e, "dbt", c.dbtEnd())
	if !sOK || !eOK || !c.ok {
		return
	}
	wantS, wantE := c.z.instant(c.start), c.z.instant(c.z.g.Add(c.end, 1))
	const neither = "which the plan neither validates nor publishes"
	if got := s.T; !got.Equal(wantS) {
		consequence := fmt.Sprintf("the rows from %s up to %s keep their wrong values", utc(wantS), utc(got))
		if got.Before(wantS) {
			consequence = fmt.Sprintf("dbt also rebuilds the rows from %s up to the range, %s", utc(got), neither)
		}
		c.report(*s.Value, "--event-time-start %s starts the rebuild at %s, but range.start %s%s begins at %s: %s\nhelp: write --event-time-start %s",
			s.Value.Value, utc(got), c.z.g.Format(c.start), c.where(), utc(wantS), consequence, runcmd.EventTimeValue(wantS))
	}
	if got := e.T; !got.Equal(wantE) {
		switch {
		case got.Equal(c.z.instant(c.end)):
			c.report(*e.Value, "--event-time-end %s is exclusive, so the rebuild stops where range.end %s%s begins: that last partition keeps its wrong values\nhelp: write --event-time-end %s",
				e.Value.Value, c.z.g.Format(c.end), c.where(), runcmd.EventTimeValue(wantE))
		case got.Before(wantE):
			c.report(*e.Value, "--event-time-end %s stops the rebuild at %s, but range.end %s%s ends at %s: the rows from %s on keep their wrong values\nhelp: write --event-time-end %s",
				e.Value.Value, utc(got), c.z.g.Format(c.end), c.where(), utc(wantE), utc(got), runcmd.EventTimeValue(wantE))
		default:
			c.report(*e.Value, "--event-time-end %s stops the rebuild at %s, but range.end %s%s ends at %s: dbt also rebuilds the rows up to %s, %s\nhelp: write --event-time-end %s",
				e.Value.Value, utc(got), c.z.g.Format(c.end), c.where(), utc(wantE), utc(got), neither, runcmd.EventTimeValue(wantE))
		}
	}
}

func utc(t time.Time) string { return t.UTC().Format("2006-01-02T15:04Z") }

// notMicrobatch reports event times passed to dbt for a target that is not
// a microbatch model. It needs the manifest and a target it resolves; BF803
// reports a target the manifest lacks.
func (c *runCheck) notMicrobatch(at *runcmd.Time, both bool) bool {
	p := c.pass.Plan
	g, m := c.pass.Unit.Lineage(), c.pass.Unit.Manifest()
	if g == nil || m == nil || !p.Target.Set {
		return false
	}
	id, err := g.Resolve(p.Target.V)
	if err != nil {
		return false
	}
	n := m.Node(id)
	if n == nil || strings.EqualFold(n.Config.IncrementalStrategy, "microbatch") {
		return false
	}
	flags := runcmd.FlagName(at.Flag)
	if both {
		flags = "--event-time-start and --event-time-end"
	}
	what, consequence := "a "+n.ResourceType, "dbt ignores them, so nothing in the range is rebuilt"
	switch mat := g.Materialization(id); mat {
	case "", n.ResourceType:
	case "incremental":
		what = "an incremental model on the adapter's default strategy"
		if n.Config.IncrementalStrategy != "" {
			what = fmt.Sprintf("an incremental model with incremental_strategy %q", n.Config.IncrementalStrategy)
		}
		consequence = "dbt ignores them and runs its usual incremental step, which does not revisit the range"
	case "table":
		what, consequence = "a table", "dbt ignores them and rebuilds the whole table from today's inputs instead of the range"
	default:
		what = fmt.Sprintf("a %s materialized as %s", n.ResourceType, mat)
	}
	c.report(at.Flag, "%s only choose the batches of microbatch models, and the target %q is %s: %s; configure it with incremental_strategy: microbatch, or recompute the range another way",
		flags, id, what, consequence)
	return true
}

func (c *runCheck) airflow(a *runcmd.Airflow) {
	cmd, startFlag, endFlag, refuse := "airflow dags backfill", "-s", "-e", false
	if a.Backfill == runcmd.Airflow3 {
		cmd, startFlag, endFlag, refuse = "airflow backfill create", "--from-date", "--to-date", true
	}
	s, e := a.Start, a.End
	switch {
	case s == nil && e == nil:
		c.report(a.Subcommand[len(a.Subcommand)-1], "%s gives neither %s nor %s: Airflow refuses to backfill without dates\nhelp: add %s %s %s %s",
			cmd, startFlag, endFlag, startFlag, c.airflowStart(), endFlag, c.airflowEnd())
		return
	case e == nil && refuse:
		c.report(s.Flag, "%s without %s: Airflow refuses to create the backfill\nhelp: add %s %s", runcmd.FlagName(s.Flag), endFlag, endFlag, c.airflowEnd())
		return
	case s == nil && refuse:
		c.report(e.Flag, "%s without %s: Airflow refuses to create the backfill\nhelp: add %s %s", runcmd.FlagName(e.Flag), startFlag, startFlag, c.airflowStart())
		return
	case e == nil:
		c.report(s.Flag, "%s without %s: Airflow ends the backfill at the start date and runs that one date, not the range through range.end\nhelp: add %s %s",
			runcmd.FlagName(s.Flag), endFlag, endFlag, c.airflowEnd())
		return
	case s == nil:
		c.report(e.Flag, "%s without %s: Airflow starts the backfill at the end date and runs that one date, not the range from range.start\nhelp: add %s %s",
			runcmd.FlagName(e.Flag), startFlag, startFlag, c.airflowStart())
		return
	}
	sOK := c.readable(s, "Airflow", c.airflowStart())
	eOK := c.readable(e, "Airflow", c.airflowEnd())
	if !sOK || !eOK || !c.ok {
		return
	}
	g := c.z.g
	const neither = "which the plan neither validates nor publishes"
	if first := c.z.firstAirflow(s); !first.Equal(c.start) {
		if first.After(c.start) {
			c.report(*s.Value, "%s %s starts the backfill at %s, after range.start %s: the runs for %s never happen and those partitions keep their wrong values\nhelp: write %s %s",
				runcmd.FlagName(s.Flag), s.Value.Value, g.Format(first), g.Format(c.start), c.z.span(c.start, g.Add(first, -1)), runcmd.FlagName(s.Flag), c.airflowStart())
		} else {
			c.report(*s.Value, "%s %s starts the backfill at %s, before range.start %s: it also runs %s, %s\nhelp: write %s %s",
				runcmd.FlagName(s.Flag), s.Value.Value, g.Format(first), g.Format(c.start), c.z.span(first, g.Add(c.start, -1)), neither, runcmd.FlagName(s.Flag), c.airflowStart())
		}
	}
	if last := c.z.lastAirflow(e); !last.Equal(c.end) {
		switch {
		case last.Equal(g.Add(c.end, 1)):
			c.report(*e.Value, "%s %s is inclusive for Airflow: it also runs %s, the partition after range.end %s, %s\nhelp: write %s %s",
				runcmd.FlagName(e.Flag), e.Value.Value, g.Format(last), g.Format(c.end), neither, runcmd.FlagName(e.Flag), c.airflowEnd())
		case last.After(c.end):
			c.report(*e.Value, "%s %s ends the backfill at %s, after range.end %s: it also runs %s, %s\nhelp: write %s %s",
				runcmd.FlagName(e.Flag), e.Value.Value, g.Format(last), g.Format(c.end), c.z.span(g.Add(c.end, 1), last), neither, runcmd.FlagName(e.Flag), c.airflowEnd())
		default:
			c.report(*e.Value, "%s %s ends the backfill at %s, before range.end %s: the runs for %s never happen and those partitions keep their wrong values\nhelp: write %s %s",
				runcmd.FlagName(e.Flag), e.Value.Value, g.Format(last), g.Format(c.end), c.z.span(g.Add(last, 1), c.end), runcmd.FlagName(e.Flag), c.airflowEnd())
		}
	}
}

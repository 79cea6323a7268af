package daterange

import (
	"fmt"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// IncludesCurrent reports a range, or a write's partition predicate, that
// reaches into the partitions the scheduled pipeline is still writing.
var IncludesCurrent = &rules.Rule{
	Code:        "BF102",
	Name:        "range-includes-current-partition",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "The range, the dates run.command runs, or a write's partition predicate reach into the partitions the scheduled pipeline still writes",
		Why: "The newest partitions belong to the scheduled pipeline: it is still loading today, and often re-processes the last few days as late data arrives. " +
			"A backfill that includes them races the pipeline. Whichever writes last wins, so the correction is silently overwritten by the next scheduled run, " +
			"or the backfill overwrites rows the pipeline loaded after the staged copy was built. " +
			"The current partition depends on the grain and on the timezone of the partition column: at 02:00 UTC it is still yesterday in New York, " +
			"and at 20:00 UTC it is already tomorrow in Tokyo. range.pipeline_owns says how many of the newest partitions the pipeline keeps rewriting. " +
			"The run command can reach them even when range.end does not: the last partition it runs is the one before dbt's exclusive --event-time-end " +
			"(or the current one when --event-time-start has no end, since dbt then runs up to now), or Airflow's inclusive -e/--to-date " +
			"(or -s alone, where Airflow 2 ends the backfill). " +
			"The SQL makes the same mistake when a write statement bounds the partition column with CURRENT_DATE, now(), getdate() or sysdate, " +
			"or from below only: it then writes up to today, and a rerun on another day writes another range. " +
			"This holds for the build into staging as much as for the publish, since the publish carries into the target whatever the build recomputed. " +
			"In a plan the partition column is range.partition_column when it is set. Otherwise it is the field the table is declared to be partitioned by, " +
			"whatever its name (a dbt model's partition_by, a bigquery-etl table's time_partitioning.field), and any column matching the partition_columns patterns " +
			"of .bflint.yaml, by default " + strings.Join(config.DefaultPartitionColumns, ", ") + " (* stands for any run of characters; bflint schema --config shows them). " +
			"Names such as created_at or block_timestamp count only where the table declares them as its partition field: as patterns they would also match columns that are no partition.",
		Bad: rules.Example{Lang: "yaml", Text: `# linted on 2026-11-30
range:
  start: 2026-11-01
  end: 2026-11-30       # today: the pipeline is still loading it
  grain: day
  timezone: UTC
`},
		Good: rules.Example{Lang: "yaml", Text: `# linted on 2026-11-30
range:
  start: 2026-11-01
  end: 2026-11-27
  grain: day
  timezone: UTC
  pipeline_owns: 3      # late data is re-processed for three days
`},
	},
	Run: func(pass *rules.Pass) error {
		if pl := bqetl.Of(pass.Plan); pl != nil {
			checkEntryEnd(pass, pl)
			return nil
		}
		if pass.Plan != nil {
			checkPlanEnd(pass)
			checkRunEnd(pass)
		}
		for _, f := range pass.Unit.SQL {
			checkSQL(pass, f)
		}
		return nil
	},
}

// owned is where the partitions the scheduled pipeline still writes begin,
// and how a message says so.
type owned struct {
	oldest, current time.Time
	text            string
}

func ownedBy(pass *rules.Pass) owned {
	p := pass.Plan
	g, loc, owns := p.Grain(), p.Location(), p.PipelineOwns()
	current := currentPartition(pass.Now, g, loc)
	oldest := g.Add(current, -(owns - 1))
	which := fmt.Sprintf("the current %s partition in %s is %s; pipeline_owns: 1", g, loc, g.Format(current))
	if owns > 1 {
		which = fmt.Sprintf("the current %s partition in %s is %s, and it writes the %d newest; pipeline_owns: %d", g, loc, g.Format(current), owns, owns)
	}
	return owned{oldest: oldest, current: current, text: fmt.Sprintf("%s, the oldest partition the scheduled pipeline still writes (%s): the backfill of %q races it, and whichever writes last wins",
		g.Format(oldest), which, p.Target.V)}
}

// checkPlanEnd compares range.end with the partitions the pipeline owns.
func checkPlanEnd(pass *rules.Pass) {
	p := pass.Plan
	_, end, ok := p.Bounds()
	if !ok {
		return
	}
	o, g := ownedBy(pass), p.Grain()
	if end.Before(o.oldest) {
		return
	}
	pass.Reportf(p.Range.End.Key, "range.end %s is at or after %s\nhelp: end the range at %s or earlier", p.Range.End.Raw, o.text, g.Format(g.Add(o.oldest, -1)))
}

// checkEntryEnd reads a bqetl entry still to run. bqetl starts it about
// an hour after it is merged, which is about when this check runs (--now):
// a run date of today or later is a day whose upstream runs have not
// happened yet, so the staging table gets an empty or partial partition,
// which completing the entry later copies over the finished one (bqetl's
// backfill guide warns of it). A depends_on_past table is exempt: bqetl
// requires its range to reach the entry date, so that no scheduled run
// chains on an uncorrected partition.
func checkEntryEnd(pass *rules.Pass, pl *bqetl.Planned) {
	e := pl.Entry
	today := dayOf(pass.Now)
	// Without metadata.yaml (a generated table, on a branch without the
	// generated files) depends_on_past is unknown, and with it the exemption.
	if e.Settled() || !e.EndDate.Valid() || e.EndDate.T.Before(today) || pl.Table.DependsOnPast.V || pl.Table.File == nil {
		return
	}
	// An entry running a whole-table query for several dates is BF302's:
	// its runs replace one another, whatever day the last one reads.
	if pl.RunsWholeTablePerDate() {
		return
	}
	if pl.Table.Null {
		pass.Reportf(e.EndDate.Key, "end_date %s reaches today, %s, and bqetl starts the backfill of %q as soon as the entry is merged: its query writes the whole table (date_partition_parameter is null), so merged before the upstream runs for today complete, the run writes all of %s from partial data, and completing the entry copies that over the table\nhelp: end the entry at %s",
			e.EndDate.Raw, today.Format(time.DateOnly), pl.Target, pl.Staging, today.AddDate(0, 0, -1).Format(time.DateOnly))
		return
	}
	pass.Reportf(e.EndDate.Key, "end_date %s reaches today, %s, and bqetl starts the backfill of %q as soon as the entry is merged: merged before the upstream runs for that day complete, it writes an empty or partial partition to %s, and completing the entry later copies it over the partition the scheduled run completed; the entry is right only if merged after them\nhelp: end the entry at %s",
		e.EndDate.Raw, today.Format(time.DateOnly), pl.Target, pl.Staging, today.AddDate(0, 0, -1).Format(time.DateOnly))
}

// checkRunEnd compares the last partition run.command runs with the
// partitions the pipeline owns. It needs no valid range: the command's own
// dates say how far it goes. A command the shell cannot read is BF106's.
func checkRunEnd(pass *rules.Pass) {
	fd := runField(pass)
	if fd == nil || fd.Err != nil {
		return
	}
	p := pass.Plan
	z := zoned{g: p.Grain(), loc: p.Location()}
	o := ownedBy(pass)
	for _, cmd := range fd.Commands {
		switch d, a := cmd.DBT, cmd.Airflow; {
		case d != nil && d.Rebuilds() && d.EventTimeEnd.Known():
			if last := z.lastDBT(d.EventTimeEnd.T); !last.Before(o.oldest) {
				pass.Reportf(fd.Pos(d.EventTimeEnd.Value.Offset), "--event-time-end %s makes the last partition dbt rebuilds %s, at or after %s\nhelp: end the command at --event-time-end %s or earlier",
					d.EventTimeEnd.Value.Value, z.g.Format(last), o.text, runcmd.EventTimeValue(z.instant(o.oldest)))
			}
		case d != nil && d.Rebuilds() && d.EventTimeEnd == nil && d.EventTimeStart.Known():
			pass.Reportf(fd.Pos(d.EventTimeStart.Flag.Offset), "--event-time-start without --event-time-end makes dbt rebuild up to the moment it starts, through the current partition %s, at or after %s\nhelp: add --event-time-end %s or earlier",
				z.g.Format(o.current), o.text, runcmd.EventTimeValue(z.instant(o.oldest)))
		case a != nil && a.Backfill != 0:
			// Airflow 2 given only a start date ends there.
			last := a.End
			if last == nil && a.Backfill == runcmd.Airflow2 {
				last = a.Start
			}
			if !last.Known() {
				continue
			}
			if p := z.lastAirflow(last); !p.Before(o.oldest) {
				pass.Reportf(fd.Pos(last.Value.Offset), "%s %s makes the last partition Airflow runs %s, at or after %s\nhelp: end the command at %s %s or earlier",
					runcmd.FlagName(last.Flag), last.Value.Value, z.g.Format(p), o.text, runcmd.FlagName(last.Flag), z.airflowValue(z.g.Add(o.oldest, -1)))
			}
		}
	}
}

// currentPartition is the partition holding now in the plan's timezone.
// Plan dates carry their wall-clock value in UTC, so now is moved onto the
// same footing before it is compared with them.
func currentPartition(now time.Time, g plan.Grain, loc *time.Location) time.Time {
	l := now.In(loc)
	wall := time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
	return g.Truncate(wall)
}

// rowWrites are the writes whose rows a predicate chooses; DDL, TRUNCATE
// and COPY choose none.
var rowWrites = map[fact.WriteKind]bool{
	fact.WriteInsert:           true,
	fact.WriteInsertOnConflict: true,
	fact.WriteInsertOverwrite:  true,
	fact.WriteReplaceWhere:     true,
	fact.WriteMerge:            true,
	fact.WriteCreateTableAs:    true,
	fact.WriteCreateOrReplace:  true,
	fact.WriteDelete:           true,
	fact.WriteUpdate:           true,
}

// checkSQL reports write statements whose partition predicate moves with
// the clock or is open above. Writes into staging count too: the build
// recomputes whatever partitions its predicate selects, and the publish
// then carries them into the target.
func checkSQL(pass *rules.Pass, f *rules.SQLFile) {
	src := f.Source.Text()
	for _, st := range f.Parsed.Statements {
		ws, fromTokens := pass.Writes(st)
		if len(ws) == 0 || !rowWrites[ws[0].Kind] {
			continue
		}
		w := ws[0]
		conds := pass.WriteConditions(st, w)
		report := pass.ReporterFor(fromTokens)
		write := fmt.Sprintf("the %s of %q", w.Kind, w.Target.Name())
		clocked := map[string]bool{}
		reported := map[int]bool{}
		for _, c := range conds {
			for _, conj := range c.Conjuncts() {
				col := partitionColumn(pass, conj)
				if col == "" {
					continue
				}
				for _, off := range conj.NowCalls() {
					clocked[strings.ToLower(col)] = true
					if reported[off] {
						continue
					}
					reported[off] = true
					report(f.Pos(off), "%s in the predicate on %q ties %s to the day it runs: it reaches the current partition the scheduled pipeline still writes, and a rerun on another day writes a different range\nhelp: bound %q with the literal first and last partitions of the range",
						clockName(src, off), col, write, col)
				}
			}
		}
		for _, b := range openLowerBounds(pass, conds) {
			switch {
			case clocked[b.Column]:
			case b.Value.Parameter:
				report(f.Pos(b.Value.Offset), "%q is bounded below here by a value computed from the run's parameter, and not above: run for a past date, as a backfill runs it, %s covers every partition from that date up to today, those the scheduled runs wrote since included\nhelp: add an upper bound at the last partition the run is for",
					b.Column, write)
			default:
				report(f.Pos(b.Value.Offset), "%q is bounded below here but not above: %s covers every partition from this bound up to today, including the current one the scheduled pipeline still writes\nhelp: add an upper bound at the last partition of the range",
					b.Column, write)
			}
		}
	}
}

// openLowerBounds returns, per partition column, the first lower bound of a
// column that nothing bounds from above.
func openLowerBounds(pass *rules.Pass, conds []sqlparse.Condition) []fact.Bound {
	lower := map[string]fact.Bound{}
	upper := map[string]bool{}
	var order []string
	for _, c := range conds {
		// A conjunct read from its tokens that names a partition column in
		// a comparison bflint cannot read may well bound it from above.
		if c.Tokens != nil && len(c.Tokens.Bounds) == 0 {
			if col := partitionColumn(pass, c); col != "" {
				upper[col] = true
			}
		}
		for _, b := range c.Bounds() {
			if !pass.IsPartitionColumn(b.Column) {
				continue
			}
			switch b.Op {
			case ">=", ">":
				if _, ok := lower[b.Column]; !ok {
					lower[b.Column] = b
					order = append(order, b.Column)
				}
			default:
				upper[b.Column] = true
			}
		}
	}
	var out []fact.Bound
	for _, col := range order {
		if !upper[col] {
			out = append(out, lower[col])
		}
	}
	return out
}

// clockName is the time function at off as written, such as CURRENT_DATE
// or getdate().
func clockName(src string, off int) string {
	end := off
	for end < len(src) && (src[end] == '_' || src[end] >= '0' && src[end] <= '9' || src[end]|0x20 >= 'a' && src[end]|0x20 <= 'z') {
		end++
	}
	name := src[off:end]
	if strings.HasPrefix(src[end:], "(") {
		name += "()"
	}
	return name
}

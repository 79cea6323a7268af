package publish

import (
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
)

// FullRefresh reports a range backfill that rebuilds the whole table.
var FullRefresh = &rules.Rule{
	Code:        "BF302",
	Name:        "full-refresh",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "The backfill rebuilds the whole table: dbt --full-refresh, or TRUNCATE, DROP, CREATE OR REPLACE or INSERT OVERWRITE without PARTITION of the target",
		Why: "A range backfill is meant to change the partitions of its range and nothing else. A full refresh rewrites every partition: " +
			"years of history the correction was never meant to touch are recomputed from today's inputs, which may have been archived, " +
			"deduplicated or re-keyed since, and readers see the table empty or half-built until the rebuild ends. It also costs a full run " +
			"of the table where a range was planned. In run.command, a dbt run or build with --full-refresh or its short form -f is reported, " +
			"whatever launches dbt (cd ... &&, uv run, env). Replace only the range: INSERT OVERWRITE ... PARTITION, a DELETE and INSERT of the range " +
			"in one transaction, or a MERGE on the key. The plan's build and publish SQL are checked against the target (the rollback SQL, " +
			"which may restore the whole table by design, is not). A standalone SQL file has no range, so it is not read: " +
			"a whole-table rewrite may be just what it is for.",
		Bad: rules.Example{Lang: "sql", Text: `-- publish of a range 2026-01-14 .. 2026-06-30
INSERT OVERWRITE analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
`},
		Good: rules.Example{Lang: "sql", Text: `INSERT OVERWRITE analytics.fct_orders PARTITION (order_date)
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
`},
	},
	Run: func(pass *rules.Pass) error {
		// Without a plan there is no range a rebuild could exceed
		// (rules.md, Standalone SQL).
		if pass.Plan == nil {
			return nil
		}
		if pl := bqetl.Of(pass.Plan); pl != nil {
			checkWholeTableEntry(pass, pl)
			return nil
		}
		checkRunCommand(pass)
		for _, f := range pass.SQLFiles("staging.build", "publish.sql") {
			for _, st := range f.Parsed.Statements {
				ws, fromTokens := pass.Writes(st)
				report := pass.ReporterFor(fromTokens)
				for _, w := range ws {
					what, consequence := wholeTable(w)
					if what == "" || w.Temporary || len(w.Target.Parts) == 0 {
						continue
					}
					if pass.IsTarget(w.Target) {
						report(f.Pos(w.Target.Offset), "%s the target %q: %s; %s", what, w.Target.Name(), consequence, rangeOnly)
					}
				}
			}
		}
		return nil
	},
}

const rangeOnly = "replace only the range's partitions: INSERT OVERWRITE ... PARTITION, DELETE and INSERT of the range in one transaction, or MERGE on the key"

// wholeTable says how a write replaces a whole relation and what that does
// outside the range; what is "" when the write is not one.
func wholeTable(w fact.Write) (what, consequence string) {
	switch {
	case w.Kind == fact.WriteTruncate && !w.Partitioned:
		return "TRUNCATE empties the whole of", "the partitions outside the range are deleted too, and readers see an empty table until all of it is rebuilt"
	case w.Kind == fact.WriteDrop:
		return "DROP removes", "the partitions outside the range go with it, and readers' queries fail until all of it is rebuilt"
	case w.Kind == fact.WriteCreateOrReplace:
		return "CREATE OR REPLACE replaces the whole of", "the table becomes exactly what the statement selects, so every partition outside the range is recomputed or lost"
	case w.Kind == fact.WriteInsertOverwrite && !w.Partitioned:
		return "INSERT OVERWRITE without PARTITION replaces every partition of", "the partitions outside the range are deleted unless the query selects them again"
	}
	return "", ""
}

// checkRunCommand reports dbt run or build with --full-refresh (or its
// short form -f). A command the shell cannot read is BF106's concern.
func checkRunCommand(pass *rules.Pass) {
	p := pass.Plan
	if p == nil || p.Run == nil {
		return
	}
	fd := runcmd.Read(pass.Unit.File, p.Run.Command)
	if fd == nil || fd.Err != nil {
		return
	}
	for _, c := range fd.Commands {
		if c.DBT == nil || !c.DBT.Rebuilds() || c.DBT.FullRefresh == nil {
			continue
		}
		flag := c.DBT.FullRefresh.Value
		if flag != "--full-refresh" {
			flag += " (--full-refresh)"
		}
		pass.Reportf(fd.Pos(c.DBT.FullRefresh.Offset), "run.command runs dbt with %s: dbt drops and rebuilds %q, and every incremental model the command selects, from all of history instead of the planned range, and readers see them empty or partial until it ends\nhelp: drop it and run the range only, e.g. --event-time-start and --event-time-end on a microbatch model", flag, p.Target.V)
	}
}

// checkWholeTableEntry reads a bqetl entry of a table whose query writes
// the whole table (scheduling.date_partition_parameter: null, no offset):
// each date of the range truncates the whole staging table, bqetl runs up
// to 16 dates at once, and whichever finishes last is what completing the
// entry copies. A one-day range, or an entry that rebuilds the table once
// (reinitialize_table) or forces a per-date parameter
// (override_depends_on_past_null_partition), runs the query once per
// partition it means. A query given no parameters (scheduling.parameters)
// reads no date at all: every date computes the same table, which costs
// runs but publishes what one run would.
func checkWholeTableEntry(pass *rules.Pass, pl *bqetl.Planned) {
	e, t := pl.Entry, pl.Table
	if !pl.RunsWholeTablePerDate() {
		return
	}
	// A partitioned table whose query takes a date most often computes
	// one partition per date, and its metadata only lacks the parameter.
	perDate := ""
	if t.Partitioning.V != "" {
		perDate = "; or, if the query computes the partition of the date it is given, name that parameter in scheduling.date_partition_parameter so that each date writes its own partition"
	}
	pass.Reportf(e.StartDate.Key, "the query of %q writes the whole table (date_partition_parameter is null in its metadata), yet the entry runs it for every date from %s to %s: each run truncates all of %s, up to 16 run at once, and the one that finishes last is what completing the entry publishes\nhelp: backfill one date, or set reinitialize_table: true to rebuild the table once%s",
		pl.Target, e.StartDate.Raw, e.EndDate.Raw, pl.Staging, perDate)
}

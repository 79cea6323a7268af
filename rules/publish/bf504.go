package publish

import (
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
)

// BuildWritesTarget reports a build that writes outside staging.
var BuildWritesTarget = &rules.Rule{
	Code:        "BF504",
	Name:        "build-writes-target",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopePlan,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "The build SQL, or the dbt command, writes the target, or a relation that is not staging",
		Why: "The build is the recompute, and it is meant to land where no consumer reads it, so it can be validated and published in one operation. " +
			"A build that writes the target publishes as it goes: readers see half a range, validation compares the new numbers with themselves, " +
			"and the rollback capture may copy data that is already changed. A build that writes any other relation outside staging changes a table " +
			"that other pipelines or consumers own, with no plan to validate or undo it. Temporary tables end with the session and are fine. " +
			"For a bigquery-etl entry that runs a query.py, bqetl does not redirect the script: its query_script_args must send the output " +
			"to the staging table bqetl copies from on completion (backfills_staging_derived.<dataset>__<table>_<entry date>, with " +
			"<project>__ in front for a table outside moz-fx-data-shared-prod since 2026-08-21; an entry dated before then may use " +
			"either name); entries already completed or cancelled are not judged. " +
			"A dbt run or build in run.command that rebuilds the target model with no --target writes it to the profile's default output, " +
			"the live relation, and is reported the same way while the plan stages.",
		Bad: rules.Example{Lang: "sql", Text: `-- staging.build
DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
INSERT INTO analytics.fct_orders
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
`},
		Good: rules.Example{Lang: "sql", Text: `-- staging.build
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
`},
	},
	Run: func(pass *rules.Pass) error {
		if pl := bqetl.Of(pass.Plan); pl != nil {
			scriptDestination(pass, pl)
			return nil
		}
		commandWritesTarget(pass)
		for _, f := range pass.SQLFiles("staging.build") {
			for _, st := range f.Parsed.Statements {
				ws, fromTokens := pass.Writes(st)
				report := pass.ReporterFor(fromTokens)
				for _, w := range ws {
					if w.Temporary || len(w.Target.Parts) == 0 || pass.IsStaging(w.Target) {
						continue
					}
					if pass.IsTarget(w.Target) {
						report(f.Pos(w.Target.Offset), "the build writes the target %q (%s): readers see the recompute before it is validated, half a range at a time, and validation ends up comparing the new numbers with themselves\nhelp: build into %s and publish from there", w.Target.Name(), w.Kind, stagingLabel(pass.Plan))
						continue
					}
					report(f.Pos(w.Target.Offset), "the build writes %q (%s), which is not staging: a relation outside the backfill's own space changes before anything is validated, and no publish or rollback of the plan covers it\nhelp: write it into %s or its schema, or make it a TEMPORARY table", w.Target.Name(), w.Kind, stagingLabel(pass.Plan))
				}
			}
		}
		return nil
	},
}

// commandWritesTarget reports a dbt run or build in run.command that
// rebuilds the plan's target model with dbt's default output while the plan
// stages: dbt then writes the model where its config puts it, the live
// relation. Silent when the command names an output (--target, or
// DBT_TARGET set before it), when its selection does not name the target
// plainly, and for a plan with no staging relation, which BF503 reports.
func commandWritesTarget(pass *rules.Pass) {
	p := pass.Plan
	if p.Run == nil || p.Staging == nil || !p.Staging.Relation.Set {
		return
	}
	target, ok := pass.TargetRelation()
	if !ok {
		return
	}
	name := strings.ToLower(target.Name())
	fd := runcmd.Read(pass.Unit.File, p.Run.Command)
	if fd == nil || fd.Err != nil {
		return
	}
	for _, c := range fd.Commands {
		d := c.DBT
		if d == nil || !d.Rebuilds() || d.Target != nil || setsTarget(c.Assignments) || !runcmd.Selects(d.Select, name) {
			continue
		}
		pass.Reportf(fd.Pos(d.Program.Offset), "run.command runs dbt %s on %q with no --target: dbt writes it to the default output of the profile, the live relation, while the plan stages in %q, so readers see the recompute before it is validated and the publish has nothing to publish"+rules.HelpMarker+"add --target with an output whose schema is the staging schema, and the plan id in the table name (docs/dbt.md, step 3), or recompute in staging.build",
			d.Subcommand.Value, name, p.Staging.Relation.V)
	}
}

func setsTarget(assignments []runcmd.Word) bool {
	for _, a := range assignments {
		if strings.HasPrefix(a.Value, "DBT_TARGET=") {
			return true
		}
	}
	return false
}

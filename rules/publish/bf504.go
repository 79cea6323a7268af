package publish

import (
	"github.com/bflint/bflint/parser/bqetl"
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
		Title: "The build SQL writes the target, or a relation that is not staging",
		Why: "The build is the recompute, and it is meant to land where no consumer reads it, so it can be validated and published in one operation. " +
			"A build that writes the target publishes as it goes: readers see half a range, validation compares the new numbers with themselves, " +
			"and the rollback capture may copy data that is already changed. A build that writes any other relation outside staging changes a table " +
			"that other pipelines or consumers own, with no plan to validate or undo it. Temporary tables end with the session and are fine. " +
			"For a bigquery-etl entry that runs a query.py, bqetl does not redirect the script: its query_script_args must send the output " +
			"to the staging table bqetl copies from on completion (backfills_staging_derived.<dataset>__<table>_<entry date>, with " +
			"<project>__ in front for a table outside moz-fx-data-shared-prod since 2026-08-21; an entry dated before then may use " +
			"either name); entries already completed or cancelled are not judged.",
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
		for _, f := range pass.SQLFiles("staging.build") {
			for _, st := range f.Parsed.Statements {
				ws, fromTokens := pass.Writes(st)
				report := pass.ReporterFor(fromTokens)
				for _, w := range ws {
					if w.Temporary || len(w.Target.Parts) == 0 || pass.IsStaging(w.Target) {
						continue
					}
					if pass.IsTarget(w.Target) {
						report(f.Pos(w.Target.Offset), "the build writes the target %q (%s): readers see the recompute before it is validated, half a range at a time, and validation ends up comparing the new numbers with themselves; build into %s and publish from there", w.Target.Name(), w.Kind, stagingLabel(pass.Plan))
						continue
					}
					report(f.Pos(w.Target.Offset), "the build writes %q (%s), which is not staging: a relation outside the backfill's own space changes before anything is validated, and no publish or rollback of the plan covers it\nhelp: write it into %s or its schema, or make it a TEMPORARY table", w.Target.Name(), w.Kind, stagingLabel(pass.Plan))
				}
			}
		}
		return nil
	},
}

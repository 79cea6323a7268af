package daterange

import (
	"fmt"

	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// RangeUnreachable reports a model whose run does not compute the range a
// backfill asks for.
var RangeUnreachable = &rules.Rule{
	Code:     "BF111",
	Name:     "range-unreachable",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "The model's run chooses its partitions from the clock or from what it holds, so a past range cannot be run",
		Why: "A backfill asks a model to recompute a past range. A dbt model whose incremental filter follows the clock " +
			"(ts >= now() - interval '7' day, a date computed from run_started_at, a project macro that returns current_date()) " +
			"recomputes the days before today whatever range the plan names, and a rerun on another day writes other rows; " +
			"one whose filter starts from the rows it already holds (ts > (SELECT MAX(ts) FROM {{ this }}), or the rows it lacks) " +
			"writes nothing for a range it already has. The plan's range is then never computed, and the correction silently " +
			"does not happen. bflint reads how each run chooses its partitions (range semantics): a parameter (microbatch, " +
			"var() values a command sets), the clock, a high-water mark, or everything (a table, a view, no incremental filter), " +
			"from the model's is_incremental() branch and the project macros it calls. A plan whose run.command runs such a model " +
			"is an error. A model linted on its own is an info finding, counted in the summary and listed by bflint models " +
			"rather than printed one by one: it is a fact about the model, which matters when a backfill is planned for it.",
		Bad: rules.Example{Lang: "sql", Text: `{{ config(materialized='incremental', unique_key='event_id') }}
select * from {{ ref('stg_events') }}
{% if is_incremental() %}
where event_ts >= current_date - interval '3 days'
{% endif %}
`},
		Good: rules.Example{Lang: "sql", Text: `{{ config(materialized='incremental', unique_key='event_id') }}
select * from {{ ref('stg_events') }}
{% if is_incremental() %}
where event_ts >= '{{ var("start", "2026-01-01") }}' and event_ts < '{{ var("end", "2099-01-01") }}'
{% endif %}
`},
	},
	Run: func(pass *rules.Pass) error {
		if pass.Plan != nil {
			reportPlanRange(pass)
			return nil
		}
		for _, f := range pass.Unit.SQL {
			r := f.Range
			if r == nil || f.Model == nil || r.Reachable() || r.Kind == rangesem.Unknown {
				continue
			}
			at := 0
			switch {
			case r.At >= 0:
				at = r.At
			case f.Parsed != nil && f.Parsed.Model != nil:
				at = f.Parsed.Model.Offset
			}
			d := rules.Diagnostic{Severity: rules.SeverityInfo, Inventory: true}
			d.Pos = f.Pos(at)
			d.Message = fmt.Sprintf("dbt model %q cannot be backfilled by range: %s, so %s\nhelp: %s", f.Model.Name, r.Why, consequence(r.Kind), remedy)
			pass.Report(d)
		}
		return nil
	},
}

const remedy = "take the range from var() values the run is given, or make the model microbatch on its event time; until then, recompute the range into staging with SQL bounded by it"

func consequence(k rangesem.Kind) string {
	if k == rangesem.Clock {
		return "a run for a past range recomputes the days before today instead, and a rerun on another day writes other rows"
	}
	return "a run for a past range it already holds writes nothing"
}

// reportPlanRange reports a plan whose run.command runs its target model
// with dbt when the model's run cannot be given the plan's range.
func reportPlanRange(pass *rules.Pass) {
	tr := pass.Unit.TargetRange
	run := pass.Plan.Run
	if tr == nil || tr.Semantics.Reachable() || tr.Semantics.Kind == rangesem.Unknown || run == nil || !run.Command.Set {
		return
	}
	fd := runcmd.Read(pass.Unit.File, run.Command)
	if fd == nil || fd.Err != nil {
		return
	}
	for _, c := range fd.Commands {
		if d := c.DBT; d != nil && d.Rebuilds() && runcmd.Selects(d.Select, tr.Node.Name) {
			d := rules.Diagnostic{}
			d.Pos = run.Command.Value
			d.Message = fmt.Sprintf("run.command runs dbt model %q, which cannot be given the plan's range: %s, so %s\nhelp: %s",
				tr.Node.UniqueID, tr.Semantics.Why, consequence(tr.Semantics.Kind), remedy)
			d.Related = []analysis.RelatedInformation{{Pos: tr.Pos, Message: "decides which partitions a run of " + tr.Node.Name + " computes"}}
			pass.Report(d)
			return
		}
	}
}

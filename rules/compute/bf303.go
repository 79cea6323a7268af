package compute

import (
	"go/token"
	"strconv"

	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
)

// UnsafeRunFlag reports Airflow commands whose flags make a backfill record
// work it did not do, skip the dates it was meant to redo, or run wider or
// in another order than planned.
var UnsafeRunFlag = &rules.Rule{
	Code:     "BF303",
	Name:     "unsafe-run-flag",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "run.command marks work done without running it, skips dates that already ran, runs backwards, or leaves Airflow 3's concurrency uncapped",
		Why: "An Airflow backfill over dates that already ran does not recompute them unless told to. Airflow 2's dags backfill leaves successful " +
			"runs alone without --reset-dagruns (and with it, asks for confirmation unless -y is given); Airflow 3's backfill create skips them unless " +
			"--reprocess-behavior completed, its default being none and failed redoing only failures. A correction is exactly a re-run of dates " +
			"that succeeded with wrong values, so without these flags it finishes green and changes nothing. -m/--mark-success is worse: " +
			"the task instances are marked successful without running at all. " +
			"Running backwards (-B, --run-backwards) is only a problem for tasks with depends_on_past, which need the date before them to have " +
			"run first; Airflow refuses such a backfill. Whether a task depends on the past is written in the DAG's code, which a plan does not " +
			"reference, so bflint cannot decide it: a backwards run is reported as a warning asking for that check, not as an error that would " +
			"be wrong for most DAGs. Also a warning: Airflow 3 without --max-active-runs, which lets the DAG's own limit decide how many dates run " +
			"at once, or with more than compute.max_concurrency, which the plan promised to the owners of shared compute.",
		Bad: rules.Example{Lang: "yaml", Text: `compute:
  max_concurrency: 2
run:
  # dates that ran are skipped: the correction changes nothing
  command: airflow backfill create --dag-id orders_daily --from-date 2026-01-14 --to-date 2026-06-30
`},
		Good: rules.Example{Lang: "yaml", Text: `compute:
  max_concurrency: 2
run:
  command: >-
    airflow backfill create --dag-id orders_daily --from-date 2026-01-14 --to-date 2026-06-30
    --reprocess-behavior completed --max-active-runs 2
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		if p.Run == nil {
			return nil
		}
		fd := runcmd.Read(pass.Unit.File, p.Run.Command)
		if fd == nil || fd.Err != nil {
			return nil
		}
		for _, c := range fd.Commands {
			if c.Airflow != nil {
				checkAirflow(pass, fd, c.Airflow)
			}
		}
		return nil
	},
}

func checkAirflow(pass *rules.Pass, fd *runcmd.Field, a *runcmd.Airflow) {
	p := pass.Plan
	dag := "the DAG"
	if a.DAG != nil {
		dag = strconv.Quote(a.DAG.Value)
	}
	at := func(w runcmd.Word) token.Pos { return fd.Pos(w.Offset) }
	if w := a.MarkSuccess; w != nil {
		pass.Reportf(at(*w), "run.command passes %s to airflow: the task instances of %s are marked successful without running, so nothing is recomputed while the backfill reports success\nhelp: drop it",
			runcmd.FlagName(*w), dag)
	}
	if a.Backfill == 0 {
		return
	}
	verb := a.Subcommand[len(a.Subcommand)-1]
	if w := a.RunBackwards; w != nil {
		pass.ReportSeverityf(rules.SeverityWarning, at(*w), "%s runs the dates newest first: a task of %s with depends_on_past needs the date before it to have run, so Airflow refuses the backfill if there is one, and bflint cannot see the DAG's tasks\nhelp: drop it unless you have checked that none depends on the past",
			runcmd.FlagName(*w), dag)
	}
	if a.Backfill == runcmd.Airflow2 {
		if a.ResetDagRuns == nil {
			yes := ""
			if a.Yes == nil {
				yes = " -y"
			}
			pass.Reportf(at(verb), "airflow dags backfill without --reset-dagruns leaves the dates of %s that already ran successfully as they are: the correction of %q recomputes nothing that was wrong\nhelp: add --reset-dagruns%s",
				dag, p.Target.V, yes)
		}
		return
	}
	switch rb := a.ReprocessBehavior; {
	case rb == nil:
		pass.Reportf(at(verb), "airflow backfill create without --reprocess-behavior completed skips the dates of %s that already ran (the default is none): the correction of %q recomputes nothing that was wrong\nhelp: add --reprocess-behavior completed",
			dag, p.Target.V)
	case rb.Value == nil:
		pass.Reportf(at(rb.Flag), "--reprocess-behavior has no value, so Airflow refuses the command\nhelp: write --reprocess-behavior completed")
	case rb.Value.Dynamic || rb.Value.Value == "completed":
	case rb.Value.Value != "none" && rb.Value.Value != "failed":
		pass.Reportf(at(*rb.Value), "--reprocess-behavior %s is not one of none, failed or completed, so Airflow refuses the command\nhelp: write --reprocess-behavior completed", rb.Value.Value)
	default:
		pass.Reportf(at(*rb.Value), "--reprocess-behavior %s skips the dates of %s that completed: they are the ones the correction of %q must redo\nhelp: write --reprocess-behavior completed",
			rb.Value.Value, dag, p.Target.V)
	}
	limit, capped := 0, p.Compute != nil && p.Compute.MaxConcurrency.Set && p.Compute.MaxConcurrency.V >= 1
	if capped {
		limit = p.Compute.MaxConcurrency.V
	}
	switch mar := a.MaxActiveRuns; {
	case mar == nil:
		fix := "add --max-active-runs with the plan's compute.max_concurrency"
		if capped {
			fix = "add --max-active-runs " + strconv.Itoa(limit)
		}
		pass.ReportSeverityf(rules.SeverityWarning, at(verb), "airflow backfill create without --max-active-runs lets the DAG's own limit decide how many dates of %s run at once, not the plan; %s",
			dag, fix)
	case capped && mar.Value != nil && !mar.Value.Dynamic:
		if n, err := strconv.Atoi(mar.Value.Value); err == nil && n > limit {
			pass.ReportSeverityf(rules.SeverityWarning, at(*mar.Value), "--max-active-runs %d runs more dates of %s at once than compute.max_concurrency %d allows, taking capacity the plan left to other pipelines\nhelp: write --max-active-runs %d",
				n, dag, limit, limit)
		}
	}
}

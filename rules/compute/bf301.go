package compute

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// Unplanned reports a backfill whose compute is left to chance.
var Unplanned = &rules.Rule{
	Code:     "BF301",
	Name:     "compute-unplanned",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The plan does not say where the compute runs or how many partitions run at once, or uses shared compute without a window",
		Why: "A backfill recomputes months of partitions in hours, which makes it the largest consumer on the platform while it runs. " +
			"On compute shared with scheduled pipelines, \"run it over the weekend\" becomes a Monday-morning freshness incident on datasets " +
			"that have nothing to do with the correction. The plan should say whether the run is isolated, cap how many partitions are in flight, " +
			"and, when it has to share, name the window taken from the pipelines' actual schedules rather than from working hours.",
		Bad: rules.Example{Lang: "yaml", Text: `compute:
  environment: shared
  # no concurrency cap, no window: submitted whenever
`},
		Good: rules.Example{Lang: "yaml", Text: `compute:
  environment: shared
  max_concurrency: 2
  window: "Sat 00:00 - Sun 12:00 UTC"
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		c := p.Compute
		if c == nil {
			pass.ReportAbsentf("plan %q has no compute section: the backfill of %q runs wherever and as wide as it is submitted, competing with scheduled pipelines for capacity\nhelp: add compute with environment and max_concurrency", p.ID.V, p.Target.V)
			return nil
		}
		if !c.MaxConcurrency.Set {
			pass.Reportf(c.Key, "compute lacks max_concurrency: nothing caps how many partitions of %q are recomputed at once, so the run can take all the capacity it finds\nhelp: set compute.max_concurrency", p.Target.V)
		}
		if c.Environment.Set && c.Environment.V == "shared" && (!c.Window.Set || strings.TrimSpace(c.Window.V) == "") {
			pass.Reportf(c.Environment.Key, "compute.environment is shared but has no window: the backfill of %q competes with scheduled pipelines whenever it happens to run, and their freshness pays for it\nhelp: set compute.window to an off-peak period taken from the pipeline schedules", p.Target.V)
		}
		return nil
	},
}

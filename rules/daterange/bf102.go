package daterange

import (
	"fmt"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// IncludesCurrent reports a range that reaches into the partitions the
// scheduled pipeline is still writing.
var IncludesCurrent = &rules.Rule{
	Code:     "BF102",
	Name:     "range-includes-current-partition",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The range reaches into the partitions the scheduled pipeline still writes",
		Why: "The newest partitions belong to the scheduled pipeline: it is still loading today, and often re-processes the last few days as late data arrives. " +
			"A backfill that includes them races the pipeline. Whichever writes last wins, so the correction is silently overwritten by the next scheduled run, " +
			"or the backfill overwrites rows the pipeline loaded after the staged copy was built. " +
			"The current partition depends on the grain and on the timezone of the partition column: at 02:00 UTC it is still yesterday in New York, " +
			"and at 20:00 UTC it is already tomorrow in Tokyo. range.pipeline_owns says how many of the newest partitions the pipeline keeps rewriting.",
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
		p := pass.Plan
		_, end, ok := p.Bounds()
		if !ok {
			return nil
		}
		g, loc, owns := p.Grain(), p.Location(), p.PipelineOwns()
		current := currentPartition(pass.Now, g, loc)
		oldest := g.Add(current, -(owns - 1))
		if end.Before(oldest) {
			return nil
		}
		owned := fmt.Sprintf("only the current one (pipeline_owns: %d)", owns)
		if owns > 1 {
			owned = fmt.Sprintf("the %d newest, %s through %s (pipeline_owns: %d)", owns, g.Format(oldest), g.Format(current), owns)
		}
		pass.Reportf(p.Range.End.Key, "range.end %s is at or after %s, the oldest partition the scheduled pipeline still writes: the current %s partition in %s is %s and the pipeline owns %s, so the backfill of %q races it and whichever writes last wins; end the range at %s or earlier",
			p.Range.End.Raw, g.Format(oldest), g, loc, g.Format(current), owned, p.Target.V, g.Format(g.Add(oldest, -1)))
		return nil
	},
}

// currentPartition is the partition holding now in the plan's timezone.
// Plan dates carry their wall-clock value in UTC, so now is moved onto the
// same footing before it is compared with them.
func currentPartition(now time.Time, g plan.Grain, loc *time.Location) time.Time {
	l := now.In(loc)
	wall := time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
	return g.Truncate(wall)
}

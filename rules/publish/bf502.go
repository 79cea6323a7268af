package publish

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// PerPartitionUntracked reports a partition-by-partition publish that keeps
// no record of which partitions landed.
var PerPartitionUntracked = &rules.Rule{
	Code:     "BF502",
	Name:     "per-partition-untracked",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A per-partition publish does not record which partitions have landed (no publish.progress)",
		Why: "Publishing partition by partition leaves the range inconsistent for as long as the run lasts. " +
			"If the run stops halfway, some partitions carry the correction and the rest do not, and without a record of which " +
			"nobody can resume it, roll it back or tell consumers which days to trust. The range then stays mixed for good.",
		Bad: rules.Example{Lang: "yaml", Text: `publish:
  mode: per_partition
  mechanism: partition_swap
  sql: sql/publish.sql
`},
		Good: rules.Example{Lang: "yaml", Text: `publish:
  mode: per_partition
  mechanism: partition_swap
  sql: sql/publish.sql
  progress: backfill_state.bf20260826_a   # one row per landed partition
`},
	},
	Run: func(pass *rules.Pass) error {
		pub := pass.Plan.Publish
		if pub == nil || !pub.Mode.Set || pub.Mode.V != "per_partition" {
			return nil
		}
		if !pub.Progress.Set || strings.TrimSpace(pub.Progress.V) == "" {
			pass.Reportf(pub.Mode.Key, "publish.mode is per_partition with no publish.progress: if the run stops halfway, nobody can tell which partitions of %q carry the correction, and the range stays mixed\nhelp: record landed partitions in publish.progress", pass.Plan.Target.V)
		}
		return nil
	},
}

// Package publish holds the rules about how the staged range reaches the
// target: that only the range is replaced, that validation runs on staging
// before the publish, that the publish is stated, that a
// partition-by-partition publish records its progress, and that staging is
// a place no consumer reads and the build writes nowhere else.
package publish

import "github.com/bflint/bflint/rules"

// Rules are the publish family.
var Rules = []*rules.Rule{FullRefresh, ValidatesPublished, Missing, PerPartitionUntracked, StagingNotIsolated, BuildWritesTarget}

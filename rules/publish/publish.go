// Package publish holds the rules about how the staged range reaches the
// target: that the publish is stated, that a partition-by-partition publish
// records its progress, and that staging is a place no consumer reads.
package publish

import "github.com/bflint/bflint/rules"

// Rules are the publish family.
var Rules = []*rules.Rule{Missing, PerPartitionUntracked, StagingNotIsolated}

// Package rerun holds the rules about re-running a partition: that the write
// converges instead of accumulating, that a merge rests on a key proven
// unique and matches on that key, that it inserts only rows of the range and
// keeps their partition, that a replace is atomic, and that the run-twice
// test was actually done.
package rerun

import "github.com/bflint/bflint/rules"

// Rules are the rerun family.
var Rules = []*rules.Rule{
	AppendWrite,
	MergeKeyUnchecked,
	MergeUnboundedInsert,
	NonAtomicReplace,
	Untested,
	MergeKeyMismatch,
	PartitionColumnDropped,
}

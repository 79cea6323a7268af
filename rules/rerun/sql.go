package rerun

import (
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
)

// inOrder returns the indexes of a file's statements in the order they are
// written. The variants of a dbt file are listed one after the other, so
// the index order is not the order in which a script runs.
func inOrder(f *sqlparse.File) []int {
	order := make([]int, len(f.Statements))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Statements[order[a]].Start < f.Statements[order[b]].Start })
	return order
}

// sameRun reports whether two statements run in the same rendering of a
// file: the incremental and the full-refresh branch of a dbt model never
// run together.
func sameRun(a, b *sqlparse.Statement) bool {
	return a.Variant == "" || b.Variant == "" || a.Variant == b.Variant
}

// columnSet lower-cases and deduplicates column names, keeping their order.
func columnSet(cols []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cols {
		c = strings.ToLower(strings.TrimSpace(c))
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// sameColumns compares two column lists as sets, without regard to case.
func sameColumns(a, b []string) bool {
	a, b = columnSet(a), columnSet(b)
	if len(a) != len(b) {
		return false
	}
	for _, c := range a {
		if !hasColumn(b, c) {
			return false
		}
	}
	return true
}

func hasColumn(cols []string, col string) bool {
	for _, c := range cols {
		if strings.EqualFold(c, col) {
			return true
		}
	}
	return false
}

// planPartitionColumn is the plan's range.partition_column, "" when the
// unit has no plan or the plan names none.
func planPartitionColumn(pass *rules.Pass) string {
	if pass.Plan == nil || pass.Plan.Range == nil || !pass.Plan.Range.PartitionColumn.Set {
		return ""
	}
	return strings.TrimSpace(pass.Plan.Range.PartitionColumn.V)
}

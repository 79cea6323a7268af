package publish

import (
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
)

// scriptDestination is BF504 for a bqetl entry that runs a query.py: bqetl
// does not redirect a script's output, so its query_script_args must name
// the staging table bqetl copies from when the entry is completed. Entries
// already completed or cancelled are history and are not judged.
func scriptDestination(pass *rules.Pass, pl *bqetl.Planned) {
	e := pl.Entry
	if e.Cancelled() || strings.EqualFold(e.Status.V, "Complete") || pl.Staging == "" {
		return
	}
	dest, at, ok := e.ScriptDestination()
	if !ok {
		return
	}
	if names(dest, pl.Staging) || (pl.EarlierStaging != "" && names(dest, pl.EarlierStaging)) {
		return
	}
	where := "a table bqetl never reads"
	if strings.EqualFold(dest, pl.Target) {
		where = "the production table itself, before anything is validated"
	}
	want := strings.Split(pl.Staging, ".")
	pass.Reportf(at.Value, "query_script_args send the script's output to %s, %s: completing the entry copies the partitions of %s, which this run does not write\nhelp: pass --destination_table=%s",
		strings.Trim(dest, "."), where, pl.Staging, want[len(want)-1])
}

// names reports whether a destination the arguments may leave partly
// unqualified (empty project or dataset) can name table.
func names(dest, table string) bool {
	got, want := strings.Split(dest, "."), strings.Split(table, ".")
	for i := range want {
		if i < len(got) && got[i] != "" && !strings.EqualFold(got[i], want[i]) {
			return false
		}
	}
	return true
}

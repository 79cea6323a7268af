package rules

import (
	"cmp"
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/parser/sqlname"
)

// Model is one dbt model of a run as the inventory shows it (bflint
// models, the summary line): its resolved config, how a run chooses the
// partitions it computes, what it reads, and whether a re-run converges.
type Model struct {
	File *SQLFile
	// ConfigPos is the model's {{ config() }} call, or its file's start.
	ConfigPos token.Pos
	// RangePos is what decides its range (NoPos when nothing in the file
	// does: a table, microbatch).
	RangePos token.Pos
	Range    rangesem.Semantics
	// Reads are the relations its SQL reads, in the order first written,
	// each with the window of its partitions read for one partition.
	Reads []ModelRead
	// Rerun is what a re-run of a partition does, and RerunWhy why.
	Rerun    Rerun
	RerunWhy string
}

// ModelRead is a relation a model reads and the window of its partitions
// read for one partition of the model: "same", "days -27..0", "month",
// "all" (unfiltered) or "unknown".
type ModelRead struct {
	Relation sqlname.Relation
	Window   string
}

// Rerun is what re-running a model's run does to the rows it wrote.
type Rerun string

const (
	// RerunSafe: a re-run replaces what it wrote (a key, partitions or
	// batches replaced, or a guard against rows already loaded).
	RerunSafe Rerun = "safe"
	// RerunAppend: a re-run inserts its rows again (BF201).
	RerunAppend Rerun = "append"
	// RerunNonAtomic: a re-run deletes, then inserts, outside one
	// transaction (BF204).
	RerunNonAtomic Rerun = "non_atomic"
	// RerunWhole: every run rebuilds the model whole.
	RerunWhole Rerun = "whole"
	// RerunUnknown: what decides it could not be read (a macro whose SQL
	// depends on a query it runs).
	RerunUnknown Rerun = "unknown"
)

// modelsOf collects the inventory rows of a unit's dbt models and
// bigquery-etl queries while their parse is still held, with what each
// reads when reads is set; findings are the unit's.
func modelsOf(u *Unit, findings []Finding, reads bool) []Model {
	var out []Model
	for _, f := range u.SQL {
		if f.Range == nil || f.Model == nil && f.Bqetl == nil {
			continue
		}
		m := Model{File: f, ConfigPos: f.Pos(0), Range: *f.Range}
		if f.Range.At >= 0 {
			m.RangePos = f.Pos(f.Range.At)
		}
		filterUnread := false
		if f.Parsed != nil {
			if f.Parsed.Model != nil {
				m.ConfigPos = f.Pos(f.Parsed.Model.Offset)
			}
			if reads {
				m.Reads = readsOf(f)
			}
			filterUnread = f.Parsed.IncrementalMacro != "" && len(f.Parsed.Expansion.Unread) > 0
		}
		m.Rerun, m.RerunWhy = rerunOf(f, findings, filterUnread)
		out = append(out, m)
	}
	return out
}

// rerunOf reads what a re-run of the model does from its config and from
// what the re-run rules (BF201 appends, BF204 non-atomic replaces) found
// in its file: they judge its SQL, guards included.
func rerunOf(f *SQLFile, findings []Finding, filterUnread bool) (Rerun, string) {
	for _, fd := range findings {
		if fd.File != f.Source || fd.Suppressed != nil {
			continue
		}
		switch fd.Rule.Code {
		case "BF201":
			return RerunAppend, firstLine(fd.Message)
		case "BF204":
			return RerunNonAtomic, firstLine(fd.Message)
		}
	}
	if q := f.Bqetl; q != nil {
		switch {
		case q.Appends.IsValid():
			return RerunSafe, "appended (--append_table), leaving out the rows the table holds"
		case q.DateParameter != "":
			return RerunSafe, "bqetl replaces the partition a run writes"
		}
		return RerunWhole, "every run writes the whole table"
	}
	c := f.Model.Config
	if !strings.EqualFold(c.Materialized, "incremental") {
		return RerunWhole, cmp.Or(strings.ToLower(c.Materialized), "view") + ": every run rebuilds it whole"
	}
	switch strategy := strings.ToLower(c.IncrementalStrategy); {
	case strategy == "microbatch" || strategy == "insert_overwrite":
		return RerunSafe, strategy + " replaces the partitions a run writes"
	case !c.AppendsUnlessFiltered():
		return RerunSafe, "unique_key " + strings.Join(c.UniqueKey, ", ") + ": a re-run replaces the rows it wrote"
	case filterUnread:
		return RerunUnknown, "no unique_key, and its incremental filter is in a macro bflint cannot read"
	case f.Parsed != nil && f.GuardsIncrement():
		return RerunSafe, "no unique_key, but its incremental filter leaves out the rows already loaded"
	case strategy == "append":
		return RerunAppend, "incremental_strategy append: every run inserts its rows again"
	}
	return RerunAppend, "no unique_key, and nothing in its incremental filter leaves out the rows already loaded: every run inserts them again"
}

// GuardsIncrement reports whether the model's is_incremental() branch
// leaves out the rows {{ this }} already holds (a strict high-watermark,
// NOT IN, NOT EXISTS, an anti-join): every run inserts only new rows, so
// a re-run inserts nothing twice.
func (f *SQLFile) GuardsIncrement() bool {
	name := strings.TrimSuffix(path.Base(f.Source.Name), path.Ext(f.Source.Name))
	this := sqlname.Relation{Parts: []string{name}}
	for _, st := range f.Parsed.Statements {
		if st.Variant == "incremental" && st.ExcludesExisting(this) {
			return true
		}
	}
	return false
}

// readsOf lists what a model reads; for a bigquery-etl query, with the
// window over which it reads each relation's partitions (dbt models'
// windows are not read).
func readsOf(f *SQLFile) []ModelRead {
	var out []ModelRead
	index := map[string]int{}
	add := func(r sqlname.Relation, w string) {
		key := strings.ToLower(r.Name())
		if i, ok := index[key]; ok {
			if out[i].Window != w {
				out[i].Window = "unknown"
			}
			return
		}
		index[key] = len(out)
		out = append(out, ModelRead{Relation: r, Window: w})
	}
	if q := f.Bqetl; q != nil && q.DateParameter != "" {
		for _, rd := range bqetl.Reads(f.Parsed, q.Table.Name(), false, "@"+q.DateParameter) {
			rel := sqlname.Relation{Parts: strings.Split(rd.Name, "."), Offset: -1}
			switch {
			case rd.Bounded:
				add(rel, rd.Window.String())
			case !rd.Filtered:
				add(rel, "all")
			default:
				add(rel, "unknown")
			}
		}
		return out
	}
	for _, r := range f.Parsed.Reads().Relations {
		add(r, "unknown")
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// sortModels orders the inventory by file name.
func sortModels(ms []Model) {
	slices.SortStableFunc(ms, func(a, b Model) int { return strings.Compare(a.File.Source.Name, b.File.Source.Name) })
}

// ModelCounts tallies an inventory for the summary line.
type ModelCounts struct {
	Models, ByRange, Clock, Watermark, Unknown, Append int
}

// CountModels tallies ms.
func CountModels(ms []Model) ModelCounts {
	c := ModelCounts{Models: len(ms)}
	for _, m := range ms {
		switch m.Range.Kind {
		case rangesem.Clock:
			c.Clock++
		case rangesem.Watermark:
			c.Watermark++
		case rangesem.Unknown:
			c.Unknown++
		default:
			c.ByRange++
		}
		if m.Rerun == RerunAppend {
			c.Append++
		}
	}
	return c
}

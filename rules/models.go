package rules

import (
	"cmp"
	"go/token"
	"slices"
	"strings"

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
	// Reads are the relations its SQL reads, in the order first written.
	Reads []sqlname.Relation
	// Rerun is what a re-run of a partition does, and RerunWhy why.
	Rerun    Rerun
	RerunWhy string
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

// modelsOf collects the inventory rows of a unit's dbt models while their
// parse is still held; codes are the rules that reported on each file.
func modelsOf(u *Unit, findings []Finding) []Model {
	var out []Model
	for _, f := range u.SQL {
		if f.Model == nil || f.Range == nil {
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
			m.Reads = f.Parsed.Reads().Relations
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
	}
	return RerunSafe, "no unique_key, but its incremental filter leaves out the rows already loaded"
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

package bqetl

import (
	"fmt"
	"go/token"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/yamlx"
)

// Rules are the codes of the rules that apply to a bqetl entry: the
// format's own problems and suppressions, and the range and rebuild
// hazards its values can show. The others need sections an entry has no
// place for (a re-run test, validation queries, a trial partition) and
// would fire on every entry.
var Rules = map[string]bool{
	"BF001": true, "BF004": true,
	"BF102": true, "BF107": true, "BF108": true, "BF109": true, "BF110": true, "BF112": true,
	"BF302": true,
	"BF504": true,
	"BF801": true, "BF809": true,
}

// Planned is one entry as the bqetl rules read it.
type Planned struct {
	Entry *Entry
	Table *Table
	// Target is project.dataset.table, from the entry's folder.
	Target string
	// Staging is the table bqetl writes the entry's run to.
	Staging string
	// EarlierStaging is the name bqetl gave the staging table before it
	// prefixed tables of other projects with their project, for an entry
	// dated before that change: the bqetl that ran it may have used either.
	// Empty when the two names are the same.
	EarlierStaging string
	// ReadsItself is set when the table's query reads the table itself
	// (its earlier partitions, as a depends_on_past table's chain does);
	// false when it does not, or its query could not be read.
	ReadsItself bool
	// Clock lists where the table's per-date query decides its rows by
	// the clock rather than by its date parameter (BF112); empty when it
	// does not, writes its whole table, or could not be read.
	Clock []ClockUse
	// Before is the entry of the same date in the file at the revision
	// --new-from-rev names: what had been merged, and so run. nil without
	// that flag, or when the entry is new.
	Before *Entry
}

// Of returns the bqetl reading of p, or nil for a plan of another format.
func Of(p *plan.Plan) *Planned {
	if p == nil || p.Origin == nil {
		return nil
	}
	pl, _ := p.Origin.Entry.(*Planned)
	return pl
}

// Plans turns the entries of a backfill.yaml into plans, one per entry;
// dir is the table's folder, sql/<project>/<dataset>/<table>, as a
// slash-separated path. The file's problems go with the first plan, so
// they are reported once. A file with problems and no entry yields one
// unreadable plan that reports them; one with neither yields none.
func Plans(f *File, t *Table, dir string) []*plan.Plan {
	target := targetOf(dir)
	problems := append(slices.Clip(f.Problems), t.Problems...)
	var out []*plan.Plan
	for _, e := range f.Entries {
		if !e.Date.Valid() {
			continue
		}
		out = append(out, entryPlan(f, e, t, target))
	}
	if len(out) == 0 {
		if len(f.Problems) == 0 {
			return nil // no entry: nothing to lint
		}
		// Nothing but its problems can be reported, once.
		return []*plan.Plan{{File: f.Source, Problems: problems, Origin: &plan.Origin{Format: "bqetl", Rules: Rules, Sources: t.sources()}}}
	}
	out[0].Problems = problems
	return out
}

func entryPlan(f *File, e *Entry, t *Table, target string) *plan.Plan {
	at := e.Field
	id := "bqetl_" + strings.ReplaceAll(e.Date.T.Format(time.DateOnly), "-", "_")
	pl := &Planned{Entry: e, Table: t, Target: target, Staging: StagingTable(target, e.Date.T)}
	if e.Date.T.Before(projectPrefixSince) {
		if earlier := unprefixedStaging(target, e.Date.T); earlier != pl.Staging {
			pl.EarlierStaging = earlier
		}
	}
	p := &plan.Plan{
		Field:    at,
		File:     f.Source,
		Readable: true,
		Version:  yamlx.Int{Field: at, V: plan.FormatVersion},
		ID:       yamlx.String{Field: at, V: id},
		Target:   yamlx.String{Field: at, V: target},
		Reason:   e.Reason,
		Origin:   &plan.Origin{Format: "bqetl", Rules: Rules, Entry: pl, Sources: t.sources()},
	}
	r := &plan.Range{Field: at, Start: e.StartDate, End: e.EndDate, PartitionColumn: t.Field}
	if t.Partitioning.V == "month" {
		r.Grain = yamlx.String{Field: t.Partitioning.Field, V: string(plan.Month)}
	}
	if days := pl.OffsetDays(); days != 0 {
		r.Start, r.End = shifted(r.Start, days), shifted(r.End, days)
	}
	p.Range = r
	p.Staging = &plan.Staging{Field: at, Relation: yamlx.String{Field: at, V: pl.Staging}}
	return p
}

// Follows reports whether the entry backfills dates of first after it:
// another entry, not cancelled, dated on or after first's day (one
// started earlier read what first had not yet corrected), and sharing a
// day of its range.
func (pl *Planned) Follows(first *Planned) bool {
	e, f := pl.Entry, first.Entry
	if pl == first || e.Cancelled() || e.Date.T.Before(f.Date.T) || !e.StartDate.Valid() || !e.EndDate.Valid() || !f.StartDate.Valid() || !f.EndDate.Valid() {
		return false
	}
	return !e.StartDate.T.After(f.EndDate.T) && !f.StartDate.T.After(e.EndDate.T)
}

// RunsWholeTablePerDate reports whether an entry still to run runs a
// query that writes the whole table (date_partition_parameter null, the
// date passed as a parameter) once for each of several dates: each run
// replaces all of the staging table, and the last to finish is what
// completing the entry publishes (BF302).
func (pl *Planned) RunsWholeTablePerDate() bool {
	e, t := pl.Entry, pl.Table
	if e.Settled() || !t.Null || !t.Parameters || t.Offset.V != 0 || e.ReinitializeTable.V || e.OverrideDependsOnPastNullPartition.V {
		return false
	}
	return e.StartDate.Valid() && e.EndDate.Valid() && e.EndDate.T.After(e.StartDate.T)
}

// OffsetDays is how far the partition each run writes lies from the date
// it runs for: date_partition_offset, unless the entry ignores it. bqetl
// applies offsets to daily partitions only.
func (pl *Planned) OffsetDays() int {
	if pl.Entry.IgnoreDatePartitionOffset.V || pl.Table.Partitioning.V == "month" {
		return 0
	}
	return pl.Table.Offset.V
}

// shifted moves a date by days, keeping where it was written.
func shifted(d plan.Date, days int) plan.Date {
	if !d.Valid() {
		return d
	}
	d.T = d.T.AddDate(0, 0, days)
	d.Raw = d.T.Format(time.DateOnly)
	return d
}

// targetOf names the table of a folder sql/<project>/<dataset>/<table>.
func targetOf(dir string) string {
	parts := strings.Split(path.Clean(dir), "/")
	if len(parts) < 3 {
		return path.Base(dir)
	}
	return strings.Join(parts[len(parts)-3:], ".")
}

// defaultProject is the project bqetl's staging tables live in, and whose
// tables it names without a project prefix.
const defaultProject = "moz-fx-data-shared-prod"

// projectPrefixSince is the day bqetl began prefixing the staging tables
// of projects other than its default one with the project's name
// (bigquery-etl commit fddda80864, 2026-08-21).
var projectPrefixSince = time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)

// StagingTable is the table bqetl backfills an entry into: one per table
// and entry date, in backfills_staging_derived, named after the dataset
// and table, and the project when it is not the default one
// (bigquery_etl/backfill/utils.py).
func StagingTable(target string, entryDate time.Time) string {
	return stagingName(target, "", entryDate, true)
}

// BackupTable is where completing an entry clones the table before the
// staging table's partitions are copied over it: the staging name with
// _backup before the entry date (bigquery_etl/backfill/utils.py). It is
// the only undo bqetl keeps.
func BackupTable(target string, entryDate time.Time) string {
	return stagingName(target, "_backup", entryDate, true)
}

// unprefixedStaging is StagingTable as bqetl computed it before
// projectPrefixSince.
func unprefixedStaging(target string, entryDate time.Time) string {
	return stagingName(target, "", entryDate, false)
}

// stagingName names a table of backfills_staging_derived for target
// (project.dataset.table, else ""), prefixed with the project when it is
// not the default one and prefixed says so.
func stagingName(target, suffix string, entryDate time.Time, prefixed bool) string {
	parts := strings.Split(target, ".")
	if len(parts) != 3 {
		return ""
	}
	prefix := ""
	if prefixed && parts[0] != defaultProject {
		prefix = parts[0] + "__"
	}
	name := fmt.Sprintf("%s%s__%s%s_%s", prefix, parts[1], parts[2], suffix, entryDate.Format(time.DateOnly))
	return defaultProject + ".backfills_staging_derived." + strings.ReplaceAll(name, "-", "_")
}

// ScriptDestination is where an entry's query_script_args point a
// query.py: the --destination-table argument (written with - or _, as
// --name=value or as two items), completed by --destination-dataset and
// --destination-project when the table is not qualified, with the item
// that names the table. ok is false when the arguments name no table.
func (e *Entry) ScriptDestination() (name string, at yamlx.String, ok bool) {
	values := map[string]string{}
	var table yamlx.String
	items := e.QueryScriptArgs.Items
	for i, it := range items {
		flag, value, hasValue := strings.Cut(strings.TrimSpace(it.V), "=")
		flag = strings.ReplaceAll(strings.TrimLeft(flag, "-"), "-", "_")
		holder := it
		if !hasValue {
			if i+1 >= len(items) || strings.HasPrefix(items[i+1].V, "-") {
				continue
			}
			holder = items[i+1]
			value = holder.V
		}
		values[flag] = strings.TrimSpace(value)
		if flag == "destination_table" {
			table = holder
		}
	}
	t := values["destination_table"]
	if t == "" {
		return "", yamlx.String{}, false
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 {
		parts = append([]string{values["destination_dataset"]}, parts...)
	}
	if len(parts) < 3 {
		parts = append([]string{values["destination_project"]}, parts...)
	}
	return strings.Join(parts, "."), table, true
}

// SetBefore gives each plan the entry of its date in before, the file as
// it was at an earlier revision.
func SetBefore(plans []*plan.Plan, before *File) {
	byDate := map[string]*Entry{}
	for _, e := range before.Entries {
		if e.Date.Valid() {
			byDate[e.Date.T.Format(time.DateOnly)] = e
		}
	}
	for _, p := range plans {
		if pl := Of(p); pl != nil {
			pl.Before = byDate[pl.Entry.Date.T.Format(time.DateOnly)]
		}
	}
}

// SetReadsItself records, on each plan of a table, whether the table's
// query reads the table: definition is the query.sql or script.sql read,
// nil when there is none.
func SetReadsItself(plans []*plan.Plan, definition *sqlparse.File) {
	if definition == nil {
		return
	}
	for _, p := range plans {
		pl := Of(p)
		if pl == nil {
			continue
		}
		project, _, _ := strings.Cut(pl.Target, ".")
		for _, r := range definition.Reads().Relations {
			if name, ok := Qualify(r, project); ok && name == strings.ToLower(pl.Target) {
				pl.ReadsItself = true
			}
		}
	}
}

// ClockUse is a place where a query compares a column with the time it
// runs instead of the date it is run for.
type ClockUse struct {
	Pos          token.Pos // the call, in the query's file
	Call, Column string
}

// SetClock records, on each plan of a table whose query writes one
// partition per run, where that query decides its rows by the clock:
// definition is the query read from file, which the plans' findings may
// then point into.
func SetClock(plans []*plan.Plan, definition *sqlparse.File, file *source.File) {
	if definition == nil {
		return
	}
	var uses []ClockUse
	for _, st := range definition.Statements {
		for _, c := range st.ClockDecisions() {
			uses = append(uses, ClockUse{Pos: file.Pos(c.Offset), Call: c.Call, Column: c.Column})
		}
	}
	for _, p := range plans {
		if pl := Of(p); pl != nil {
			pl.Clock = uses
			if len(uses) > 0 && p.Origin != nil {
				p.Origin.Sources = append(p.Origin.Sources, file)
			}
		}
	}
}

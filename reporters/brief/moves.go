package brief

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// Moves is what changes for consumers, and when.
type Moves struct {
	// Publish is how the target changes; nil when the plan does not say.
	Publish *Publish `json:"publish"`
	// Window says, in words, how long consumers see a half-corrected
	// range.
	Window string `json:"window"`
	// Lineage is the dbt manifest or bigquery-etl tree the downstream was
	// read from, "" when there was none (then only the plan's lists).
	Lineage           string     `json:"lineage,omitempty"`
	Downstream        []Step     `json:"downstream"`
	DownstreamOmitted int        `json:"downstream_omitted,omitempty"`
	Views             []string   `json:"views"`
	ViewsOmitted      int        `json:"views_omitted,omitempty"`
	Exposures         []Exposure `json:"exposures"`
	ExposuresOmitted  int        `json:"exposures_omitted,omitempty"`
	Snapshots         []Snapshot `json:"snapshots"`
	SnapshotsOmitted  int        `json:"snapshots_omitted,omitempty"`
	Consumers         []string   `json:"consumers,omitempty"`
	ExpectedChange    string     `json:"expected_change,omitempty"`
	// Diagram is a Mermaid flowchart of the rebuild order.
	Diagram string `json:"diagram"`
}

// Publish is how the corrected range reaches the target.
type Publish struct {
	Mode      string `json:"mode,omitempty"`
	Mechanism string `json:"mechanism,omitempty"`
	SQL       string `json:"sql,omitempty"`
	Progress  string `json:"progress,omitempty"`
}

// How a derived node follows the correction (Step.By).
const (
	ByRebuild   = "rebuild"   // this plan's downstream.rebuild, at Order
	ByPlan      = "plan"      // the target of another plan of the run
	BySkip      = "skip"      // left as it is, for Reason
	BySchedule  = "scheduled" // a bigquery-etl table its next scheduled run writes whole
	ByUnion     = "union"     // reached only through a view unioning other relations
	ByNewer     = "newer"     // a bigquery-etl table created since the entry's day
	ByUnplanned = "unlisted"  // in none of the above
)

// Step is one derived node and how it follows the correction.
type Step struct {
	Node   string `json:"node"`
	Kind   string `json:"kind,omitempty"` // materialization, when the lineage knows it
	By     string `json:"by"`
	Order  int    `json:"order,omitempty"`
	Plan   string `json:"plan,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Window is how the node reads the target's partitions for one of
	// its own ("days -27..0") and Range the range it must then be
	// rebuilt over; both empty when it reads them one for one, or the
	// window is not known.
	Window string `json:"window,omitempty"`
	Range  string `json:"range,omitempty"`
}

// Exposure is a dashboard or other consumer the lineage or the plan names.
type Exposure struct {
	Node  string `json:"node"`
	Owner string `json:"owner,omitempty"`
	// Told is set when the plan names it in downstream.notify or
	// communication.consumers.
	Told bool `json:"told"`
}

// Snapshot is a snapshot derived from the target: it keeps the history it
// recorded before the correction.
type Snapshot struct {
	Node   string `json:"node"`
	Reason string `json:"reason,omitempty"` // the plan's skip reason
}

// moves reads what a bflint plan moves, from its lists and, when the unit
// has a dbt manifest holding the target, from the lineage.
func moves(u *rules.Unit, all []*plan.Plan, targetName string) *Moves {
	p := u.Plan
	mv := &Moves{Downstream: []Step{}, Views: []string{}, Exposures: []Exposure{}, Snapshots: []Snapshot{}}
	if c := p.Communication; c != nil {
		mv.Consumers, mv.ExpectedChange = c.Consumers.Values(), oneLine(answer(c.ExpectedChange.V))
	}
	if pub := p.Publish; pub != nil {
		mv.Publish = &Publish{Mode: answer(pub.Mode.V), Mechanism: answer(pub.Mechanism.V), SQL: answer(pub.SQL.V), Progress: answer(pub.Progress.V)}
	}
	ds := p.Downstream
	if ds == nil {
		ds = &plan.Downstream{}
	}
	l := lineageOf(u)
	target := l.resolve(p.Target.V)
	var derived []string // sorted
	if target != "" {
		mv.Lineage = u.DBT.Path
		derived = l.g.Downstream(target)
	}
	handled := map[string]bool{}
	add := func(s Step, id string) {
		if id != "" {
			handled[id] = true
			s.Kind = l.kind(id)
		}
		if id != "" && p.Range != nil && p.Range.Start.Valid() && p.Range.End.Valid() {
			s.Window, s.Range = rebuildWindow(u, l, target, id, p.Range.Start.T, p.Range.End.T)
		}
		mv.Downstream = append(mv.Downstream, s)
	}
	for i, r := range ds.Rebuild.Items {
		add(Step{Node: r.V, By: ByRebuild, Order: i + 1}, l.resolve(r.V))
	}
	for _, other := range all {
		if other == p || !other.Target.Set {
			continue
		}
		id := l.resolve(other.Target.V)
		after := p.ID.Set && slices.Contains(other.After.Values(), p.ID.V)
		_, isDerived := slices.BinarySearch(derived, id)
		if after || (id != "" && isDerived) {
			add(Step{Node: other.Target.V, By: ByPlan, Plan: other.ID.V}, id)
		}
	}
	skipReason := map[string]string{}
	for _, s := range ds.Skip {
		id := l.resolve(s.Node.V)
		if n := l.node(id); n != nil && n.ResourceType == manifest.Snapshot {
			skipReason[id] = oneLine(answer(s.Reason.V))
			continue // listed with the snapshots
		}
		add(Step{Node: s.Node.V, By: BySkip, Reason: oneLine(answer(s.Reason.V))}, id)
	}
	if target != "" {
		for _, id := range l.g.Rebuild(target) {
			if !handled[id] {
				add(Step{Node: id, By: ByUnplanned}, id)
			}
		}
		mv.Views = l.g.Views(target)
		for _, id := range l.g.Snapshots(target) {
			mv.Snapshots = append(mv.Snapshots, Snapshot{Node: id, Reason: skipReason[id]})
		}
	}
	mv.Exposures = exposures(l, target, ds.Notify.Values(), mv.Consumers)
	mv.Diagram = diagram(l, target, p.Target.V, derived, mv)
	mv.Window = window(p, mv, targetName)
	mv.bound()
	return mv
}

// bound keeps each list to its maximum, counting the rest.
func (mv *Moves) bound() {
	mv.Downstream, mv.DownstreamOmitted = firstOf(mv.Downstream, MaxListed)
	mv.Views, mv.ViewsOmitted = firstOf(mv.Views, MaxViews)
	mv.Exposures, mv.ExposuresOmitted = firstOf(mv.Exposures, MaxListed)
	mv.Snapshots, mv.SnapshotsOmitted = firstOf(mv.Snapshots, MaxListed)
}

func firstOf[T any](list []T, n int) ([]T, int) {
	if len(list) <= n {
		return list, 0
	}
	return list[:n], len(list) - n
}

// exposures are the lineage's exposures below the target, then the
// plan's notify entries the lineage does not name, each marked told when
// the plan names it.
func exposures(l lineageView, target string, notify, consumers []string) []Exposure {
	told := map[string]bool{}
	for _, name := range slices.Concat(notify, consumers) {
		told[name] = true
		if id := l.resolve(name); id != "" {
			told[id] = true
		}
	}
	out := []Exposure{}
	seen := map[string]bool{}
	if target != "" {
		for _, id := range l.g.Notify(target) {
			n := l.m.Node(id)
			e := Exposure{Node: id, Told: told[id] || (n != nil && told[n.Name])}
			if n != nil {
				e.Owner = ownerOf(n.Owner)
			}
			seen[id] = true
			out = append(out, e)
		}
	}
	for _, name := range notify {
		if id := l.resolve(name); id == "" || !seen[id] {
			out = append(out, Exposure{Node: name, Told: true})
		}
	}
	return out
}

func ownerOf(o manifest.Owner) string {
	switch {
	case o.Name != "" && o.Email != "":
		return o.Name + " <" + o.Email + ">"
	case o.Name != "":
		return o.Name
	}
	return o.Email
}

// window says how long consumers read a half-corrected range.
func window(p *plan.Plan, mv *Moves, target string) string {
	partitions := "the range"
	if n := p.Partitions(); n > 0 {
		partitions = fmt.Sprintf("the %d partitions of the range", n)
	}
	var s string
	switch {
	case mv.Publish == nil || mv.Publish.Mode == "":
		s = fmt.Sprintf("The plan does not say how the result reaches %s, so consumers may see %s change one by one over the run.", target, partitions)
	case mv.Publish.Mode == "whole_range":
		s = fmt.Sprintf("Consumers of %s see %s change at one instant, when the publish (%s) commits.", target, partitions, orUnstated(mv.Publish.Mechanism))
		if t := p.Trial; t != nil && t.Partition.Valid() {
			s = fmt.Sprintf("The trial partition %s of %s is published first and inspected; then consumers see the rest of the range change at one instant, when the publish (%s) commits.", t.Partition.Raw, target, orUnstated(mv.Publish.Mechanism))
		}
	default:
		s = fmt.Sprintf("Consumers of %s read a range that is part old, part new for the length of the run: %s are published one by one", target, partitions)
		if c := p.Compute; c != nil && c.MaxConcurrency.Set {
			s += fmt.Sprintf(", at most %d at a time", c.MaxConcurrency.V)
		}
		if mv.Publish.Progress != "" {
			s += fmt.Sprintf(", each recorded in %s as it lands", mv.Publish.Progress)
		}
		s += "."
	}
	var later []string
	for _, st := range mv.Downstream {
		switch st.By {
		case ByRebuild:
			later = append(later, fmt.Sprintf("%s until this plan rebuilds it (step %d)", st.Node, st.Order))
		case ByPlan:
			later = append(later, fmt.Sprintf("%s until plan %s corrects it", st.Node, st.Plan))
		}
	}
	if len(later) > 0 {
		s += " Derived tables show the old numbers meanwhile: " + listing(later, 3) + "."
	}
	return s
}

// entryMoves is what completing a bigquery-etl entry moves: bqetl clones
// the table, then copies the staging table over it, partition by partition
// for a partitioned table; the lineage is the tree's.
func entryMoves(u *rules.Unit, pl *bqetl.Planned, all []*plan.Plan) *Moves {
	mv := &Moves{Downstream: []Step{}, Views: []string{}, Exposures: []Exposure{}, Snapshots: []Snapshot{}}
	whole := pl.Entry.ReinitializeTable.V || pl.Table.Partitioning.V == ""
	mv.Publish = &Publish{Mode: "per_partition", Mechanism: "bqetl backfill complete: each partition of the staging table copied over the table's"}
	mv.Window = fmt.Sprintf("When the entry is marked Complete, bqetl clones %s to its backup, then copies the staging table's partitions over the table's one by one: while the copies run, consumers read some partitions corrected and some not.", pl.Target)
	switch {
	case whole:
		mv.Publish = &Publish{Mode: "whole_range", Mechanism: "bqetl backfill complete: the staging table copied over the whole table"}
		mv.Window = fmt.Sprintf("When the entry is marked Complete, bqetl clones %s to its backup, then copies the staging table over the whole table in one copy: consumers see it change at one instant.", pl.Target)
	case pl.Table.Null && pl.OffsetDays() == 0 && !pl.Entry.OverrideDependsOnPastNullPartition.V:
		// bqetl copies a partitioned table date by date, and a query
		// written whole (date_partition_parameter null) names no
		// partition for any date: completing stops before the copy.
		mv.Publish = &Publish{Mode: "whole_range", Mechanism: "bqetl backfill complete: stops with no partition to copy (the query writes the whole table); with reinitialize_table: true the staging table is copied over the whole table, once"}
		mv.Window = fmt.Sprintf("%s is written whole by its query, so no date of the entry names a partition: bqetl backfill complete stops before copying anything ('Null partition found') and consumers keep the table as it was. Set reinitialize_table: true to have bqetl rebuild the table once in staging and copy it over the whole table in one copy.", pl.Target)
	}
	l := lineageOf(u)
	target := l.resolve(pl.Target)
	if target == "" {
		mv.Diagram = diagram(l, "", pl.Target, nil, mv)
		return mv
	}
	mv.Lineage = u.DBT.Path
	covered := map[string]string{}
	for _, other := range all {
		if o := bqetl.Of(other); o != nil && o.Follows(pl) {
			covered[l.resolve(o.Target)] = o.Entry.Date.Raw
		}
	}
	reached := map[string]bool{}
	for _, id := range l.g.RebuildAvoiding(target, bqetl.UnionViews(l.m)) {
		reached[id] = true
	}
	order := l.g.Rebuild(target)
	newer := createdSince(u, pl, order)
	for i, id := range order {
		st := Step{Node: id, Kind: l.kind(id), By: ByUnplanned, Order: i + 1}
		if pl.Entry.StartDate.Valid() && pl.Entry.EndDate.Valid() {
			st.Window, st.Range = rebuildWindow(u, l, target, id, pl.Entry.StartDate.T, pl.Entry.EndDate.T)
		}
		if !pl.Entry.Corrects() {
			// A first fill, or a new column: the rows the table computed
			// did not read what the entry writes.
			st.Reason = "the entry fills data this table has not read"
		}
		switch {
		case covered[id] != "":
			st.By, st.Plan = ByPlan, covered[id]
		case newer[id]:
			st.By = ByNewer
		case st.Kind == "deprecated":
			st.By, st.Reason = BySkip, "deprecated, no longer maintained"
		case st.Kind != "incremental":
			st.By = BySchedule
		case !reached[id]:
			st.By = ByUnion
		}
		mv.Downstream = append(mv.Downstream, st)
	}
	mv.Views = l.g.Views(target)
	mv.Diagram = diagram(l, target, pl.Target, l.g.Downstream(target), mv)
	mv.bound()
	return mv
}

// createdSince marks the tables of ids the tree did not define before the
// entry's day, as its history tells: they computed every partition from
// corrected rows. Without the history, none is marked.
func createdSince(u *rules.Unit, pl *bqetl.Planned, ids []string) map[string]bool {
	out := map[string]bool{}
	if u.DBT == nil || u.DBT.History == nil || !pl.Entry.Date.Valid() {
		return out
	}
	defined, ok := u.DBT.History.DefinedOn(pl.Entry.Date.T, ids)
	if !ok {
		return out
	}
	for _, id := range ids {
		out[id] = !defined[id]
	}
	return out
}

// lineageView is the unit's lineage with names resolved through it; its
// methods answer "unknown" without one.
// rebuildWindow is the window over which id reads the target and the
// range a correction over start..end widens to for it; "" when it reads
// the target's partitions one for one or the window is not known.
func rebuildWindow(u *rules.Unit, l lineageView, target, id string, start, end time.Time) (string, string) {
	if u.DBT == nil || u.DBT.Windows == nil || target == "" {
		return "", ""
	}
	w, ok := u.DBT.Windows.Along(l.g.Path(target, id))
	if !ok || w.IsSame() {
		return "", ""
	}
	from, to := w.Affected(start, end)
	return w.String(), from.Format(time.DateOnly) + ".." + to.Format(time.DateOnly)
}

type lineageView struct {
	g *lineage.Graph
	m *manifest.Manifest
}

func lineageOf(u *rules.Unit) lineageView {
	return lineageView{g: u.Lineage(), m: u.Manifest()}
}

// resolve is the unique_id a plan's name denotes, "" without a lineage or
// when it denotes none or several.
func (l lineageView) resolve(name string) string {
	if l.g == nil || name == "" {
		return ""
	}
	id, err := l.g.Resolve(strings.TrimSpace(name))
	if err != nil {
		return ""
	}
	return id
}

func (l lineageView) kind(id string) string {
	if l.g == nil {
		return ""
	}
	if m := l.g.Materialization(id); m != "" {
		return m
	}
	if n := l.m.Node(id); n != nil {
		return n.ResourceType
	}
	return ""
}

// node is the manifest's node of id, nil without a lineage.
func (l lineageView) node(id string) *manifest.Node {
	if l.m == nil || id == "" {
		return nil
	}
	return l.m.Node(id)
}

// listing names up to n items, counting the rest.
func listing(items []string, n int) string {
	if len(items) <= n {
		return joinAnd(items)
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func orUnstated(s string) string {
	if s == "" {
		return "mechanism not stated"
	}
	return s
}
